#!/usr/bin/env python3
"""Runs a command as a child subreaper and, when it ends, stops whatever it left behind.

A test process that crashes leaves its servers (PostgreSQL, Mosquitto, meshport sim ...)
running; without this they would be adopted by init and load the machine for the next run.
Here they are adopted by this process instead (PR_SET_CHILD_SUBREAPER), which sends each
SIGTERM, then SIGKILL after 5 s, until none is left. Exits with the command's status.

Usage: Tools/reap.py COMMAND [ARGUMENT...]
"""
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

PR_SET_CHILD_SUBREAPER = 36


def children():
    """This process's children still alive (zombies are reaped as they are found)."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me:
            found.append(int(entry))
    return found


def reap_zombies():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def reap_adopted(command_pid):
    while True:
        for pid in children():
            if pid == command_pid:
                continue
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        time.sleep(1)


def stop_left_behind(command):
    stopped = 0
    deadline = None
    while True:
        reap_zombies()
        left = children()
        if not left:
            break
        if deadline is None:
            deadline = time.monotonic() + 5
        late = time.monotonic() > deadline
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL if late else signal.SIGTERM)
            except ProcessLookupError:
                pass
        stopped = max(stopped, len(left))
        time.sleep(0.1)
    if stopped:
        print(f"reap: {command} left processes running; stopped them (at most {stopped} at a time)", file=sys.stderr)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: Tools/reap.py COMMAND [ARGUMENT...]")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print(f"reap: cannot become a subreaper ({os.strerror(ctypes.get_errno())}); processes left behind stay", file=sys.stderr)
    proc = subprocess.Popen(sys.argv[1:])
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda s, _: proc.send_signal(s))
    # Adopted processes that exit while the command runs are reaped at once, as init would:
    # a zombie kept until the end would still answer kill(pid, 0).
    threading.Thread(target=reap_adopted, args=(proc.pid,), daemon=True).start()
    status = proc.wait()
    stop_left_behind(os.path.basename(sys.argv[1]))
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
