#!/usr/bin/env python3
"""Chaos and two writers (issue 28) against the real `meshport sim` and `meshport serve`.

  kill     serve killed -9 at CHAOS_KILLS random moments of a 10 DM/s stream and restarted on
           the same database; `db check` after each kill; at the end every DM the radio
           handed over is stored exactly once.
  freeze   the sim stopped (SIGSTOP) for CHAOS_FREEZE_SECONDS: the API answers a radio
           command with a typed error, then everything recovers without a restart.
  cuts     the link cut at random frames of sync, drain and send: Tools/link-loss.sh over
           CHAOS_CUTS seeds (each cuts several links): nothing lost, nothing stored twice.
  diskfull the database on a small tmpfs filled up during ingest: serve stays up and says
           why, `db check` passes, and new DMs are stored once space returns.
  writers  serve plus CLI `send`, `contacts` and `db backup` on one database for
           TWO_WRITERS_SECONDS: no "database is locked" reaches the user, no write lost.

Usage: chaos.py [--results FILE] PART...   (default: all five)
Each part prints its report and merges its figures into FILE (reliability-results.json).
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from chaos_support import ROOT, Run, figure, merge_results, missing_and_twice, received, wait_for

RATE = 10  # DMs per second


def env_int(name, default):
    return int(os.environ.get(name, default))


def http(base, method, path, timeout=60):
    """(status, JSON body or text) of one API request."""
    request = urllib.request.Request(base + path, method=method, data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, json.loads(body)
        except ValueError:
            return e.code, body.decode(errors="replace")


def drained(run, db, messages):
    """Waits (at most 60 s) until every DM is stored; (missing, stored twice)."""
    wait_for(lambda: not missing_and_twice(db, messages)[0], 60)
    return missing_and_twice(db, messages)


def kill(results):
    kills = env_int("CHAOS_KILLS", 5)
    run = Run("chaos-kill")
    db = run.dir / "meshport.db"
    # About 2.5 s a round (uptime, the debug build's start, db check); more DMs than needed is harmless.
    messages = int(kills * 2.5 * RATE) + 50
    try:
        _, radio, last_due = run.sim(messages)
        broken = []
        for round_ in range(kills):
            serve, _ = run.serve(radio, db)
            time.sleep(random.uniform(0.05, 1.5))
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
            problem = run.db_check(db)
            if problem:
                broken.append(f"after kill {round_ + 1}: {problem}")
        run.serve(radio, db)
        time.sleep(max(0.0, last_due - time.monotonic()))
        missing, twice = drained(run, db, messages)
        check = run.db_check(db)
    finally:
        run.stop_all()
    print(f"kill -9: {kills} kills, {len(broken)} failed integrity checks, {messages} DMs handed over, "
          f"{len(missing)} missing, {len(twice)} stored twice")
    for line in broken[:5]:
        print(f"  {line}")
    if missing:
        print(f"  missing: {', '.join(f'chaos {i}' for i in missing[:20])}")
    results.update({
        "chaos_kill_rounds": figure(kills, "kills", "CHAOS_KILLS", True),
        "chaos_kill_integrity_failures": figure(len(broken) + (1 if check else 0), "checks", 0, not broken and not check),
        "chaos_kill_messages_lost": figure(len(missing), "messages", 0, not missing),
        "chaos_kill_messages_twice": figure(len(twice), "messages", 0, not twice),
    })
    if not broken and not missing and not twice:
        shutil.rmtree(run.dir, ignore_errors=True)


def freeze(results):
    seconds = env_int("CHAOS_FREEZE_SECONDS", 30)
    run = Run("chaos-freeze")
    db = run.dir / "meshport.db"
    messages = int((seconds + 30) * RATE)
    try:
        sim, radio, last_due = run.sim(messages)
        serve, base = run.serve(radio, db, ["--timeout", "3"])
        wait_for(lambda: len(received(db)) > 20, 30)
        _, radios = http(base, "GET", "/api/radios")
        key = radios[0]["id"] if isinstance(radios, list) else radios["radios"][0]["id"]
        os.kill(sim.pid, signal.SIGSTOP)
        frozen_at = time.monotonic()
        started = time.monotonic()
        status, body = http(base, "POST", f"/api/radios/{key}/stats/sample")
        answered_in = time.monotonic() - started
        typed = status in (503, 504) and isinstance(body, dict) and "error" in body
        health, _ = http(base, "GET", "/healthz")
        time.sleep(max(0.0, seconds - (time.monotonic() - frozen_at)))
        os.kill(sim.pid, signal.SIGCONT)
        recovered = wait_for(lambda: http(base, "POST", f"/api/radios/{key}/stats/sample")[0] == 200, 60, 1.0)
        time.sleep(max(0.0, last_due - time.monotonic()))
        missing, twice = drained(run, db, messages)
        alive = serve.poll() is None
    finally:
        run.stop_all()
    ok = typed and recovered and alive and not missing and not twice
    print(f"radio frozen {seconds} s: a radio command answered {status} in {answered_in:.1f} s ({body}); "
          f"/healthz {health} meanwhile; recovered without restart: {bool(recovered) and alive}; "
          f"{len(missing)} of {messages} DMs missing, {len(twice)} stored twice")
    results.update({
        "chaos_freeze_typed_timeout": figure(status, "HTTP status", "503 or 504 with an error body", typed),
        "chaos_freeze_recovered": figure(bool(recovered) and alive, "bool", True, bool(recovered) and alive),
        "chaos_freeze_messages_lost": figure(len(missing) + len(twice), "messages", 0, not missing and not twice),
    })
    if ok:
        shutil.rmtree(run.dir, ignore_errors=True)


def cuts(results):
    runs = max(100, env_int("CHAOS_CUTS", 100) // 100 * 100)
    done = subprocess.run([str(ROOT / "Tools" / "link-loss.sh"), str(runs)], capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    print(f"link cut at random frames: {runs} seeds of LinkLossTests: {lines[-1] if lines else done.stderr.strip()[-300:]}")
    for line in lines:
        if "FAILED" in line:
            print(f"  {line}")
    results["chaos_link_cut_seeds_failed_batches"] = figure(sum("FAILED" in line for line in lines) if lines else runs // 100,
                                                            "batches of 100 seeds", 0, done.returncode == 0)


def diskfull(results):
    run = Run("chaos-diskfull")
    mount = run.dir / "small"
    mount.mkdir()
    refused = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)], capture_output=True, text=True)
    if refused.returncode != 0:
        print(f"disk full: skipped, cannot mount a tmpfs here ({refused.stderr.strip()})")
        results["chaos_diskfull"] = figure("skipped", "", "mount a tmpfs (root)", False)
        return
    # Room for the WAL, which grows to about 40 MB between checkpoints (Modules/MeshStore/MeshStore.swift).
    db = mount / "meshport.db"
    messages = 60 * RATE
    try:
        sim, radio, last_due = run.sim(messages, start_at=3)
        serve, base = run.serve(radio, db)
        wait_for(lambda: len(received(db)) > 10, 30)
        filler = mount / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True)
        stored_full = len(received(db))
        time.sleep(8)
        alive_full = serve.poll() is None
        health, _ = http(base, "GET", "/healthz")
        log = (run.dir / "serve.log").read_text(errors="replace")
        said = [line for line in log.splitlines() if "space" in line.lower() or "full" in line.lower()]
        filler.unlink()
        check = run.db_check(db)
        time.sleep(max(0.0, last_due - time.monotonic()))
        missing, twice = drained(run, db, messages)
        alive = serve.poll() is None
    finally:
        run.stop_all()
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)
    ok = alive_full and alive and said and not check and not missing and not twice
    print(f"disk full: serve alive while full: {alive_full} (/healthz {health}); its words: {said[:1] or 'none'}; "
          f"db check: {check or 'ok'}; {stored_full} DMs stored before full, {len(missing)} of {messages} missing "
          f"after space returned, {len(twice)} stored twice")
    results.update({
        "chaos_diskfull_clear_error": figure(bool(said) and alive_full, "bool", True, bool(said) and alive_full),
        "chaos_diskfull_integrity": figure(check or "ok", "", "ok", not check),
        "chaos_diskfull_messages_lost": figure(len(missing) + len(twice), "messages", 0, not missing and not twice),
    })
    if ok:
        shutil.rmtree(run.dir, ignore_errors=True)


def writers(results):
    seconds = env_int("TWO_WRITERS_SECONDS", 20)
    run = Run("two-writers")
    db = run.dir / "meshport.db"
    messages = (seconds + 5) * RATE
    locked, failures, sent = [], [], []
    calls = 0
    try:
        _, radio, last_due = run.sim(messages)
        serve, base = run.serve(radio, db, ["--companion", "127.0.0.1:0", "--log-level", "info"])
        companion = wait_for(run.companion, 30)
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            n += 1
            for args in (["send", "--radio", companion, "--db", str(db), "--no-wait", "ann", f"outgoing {n}"],
                         ["contacts", "--radio", companion, "--db", str(db)],
                         ["db", "backup", "--db", str(db), "--to", str(run.dir / "backup.db"), "--overwrite"]):
                status, out, err = run.meshport(args)
                calls += 1
                if status != 0 or "locked" in (out + err).lower():
                    with open(run.dir / "failed-commands.log", "a") as log:
                        log.write(f"$ meshport {' '.join(args)}\nexit {status}\n{out}{err}\n")
                if "locked" in (out + err).lower():
                    locked.append(f"{args[0]}: {err.strip()[:200]}")
                elif status != 0:
                    failures.append(f"{' '.join(args[:2])}: exit {status}: {err.strip()[:200]}")
                elif args[0] == "send":
                    sent.append(f"outgoing {n}")
        time.sleep(max(0.0, last_due - time.monotonic()))
        missing, twice = drained(run, db, messages)
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as c:
            stored_out = {t for (t,) in c.execute("SELECT text FROM messages WHERE direction = 1 AND text LIKE 'outgoing %'")}
        lost_out = [t for t in sent if t not in stored_out]
        check = run.db_check(db)
        # The CLI goes through serve's companion port: serve's own link to the radio never
        # drops (read before the sim is stopped, which does drop it).
        links_lost = (run.dir / "serve.log").read_text(errors="replace").count("link to the radio was lost")
    finally:
        run.stop_all()
    ok = not locked and not failures and not missing and not twice and not lost_out and not check and not links_lost
    print(f"two writers {seconds} s: {calls} CLI commands beside serve, {len(locked)} said \"database is locked\", "
          f"{len(failures)} other failures; {len(sent)} sends, {len(lost_out)} not stored; {messages} DMs received, "
          f"{len(missing)} missing, {len(twice)} twice; serve lost its radio link {links_lost} times; db check {check or 'ok'}")
    for line in (locked + failures)[:5]:
        print(f"  {line}")
    results.update({
        "two_writers_locked": figure(len(locked), "commands", 0, not locked),
        "two_writers_failed_commands": figure(len(failures), "commands", 0, not failures),
        "two_writers_radio_links_lost": figure(links_lost, "reconnects", 0, not links_lost),
        "two_writers_writes_lost": figure(len(missing) + len(twice) + len(lost_out), "rows", 0,
                                          not missing and not twice and not lost_out),
    })
    if ok:
        shutil.rmtree(run.dir, ignore_errors=True)


PARTS = {"kill": kill, "freeze": freeze, "cuts": cuts, "diskfull": diskfull, "writers": writers}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default="reliability-results.json")
    parser.add_argument("parts", nargs="*", metavar="PART", help=", ".join(PARTS))
    args = parser.parse_args()
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        parser.error(f"no part named {', '.join(unknown)}; the parts are {', '.join(PARTS)}")
    results = {}
    try:
        for part in args.parts or list(PARTS):
            PARTS[part](results)
    finally:
        if results:
            merge_results(args.results, results)
    failed = [name for name, entry in results.items() if not entry["ok"]]
    print(f"chaos: {len(results) - len(failed)} figures met their goal, {len(failed)} missed: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
