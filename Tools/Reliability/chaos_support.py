"""What the chaos, two-writer and soak runs share (Tools/Reliability/chaos.py, soak.py): a
`meshport sim` with a steady stream of DMs, `meshport serve` on it, isolated HOME/XDG folders,
the store's counts and the figures file."""
import json
import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SENDER = "ann"


def meshport():
    """The built `meshport` (MESHPORT overrides)."""
    path = os.environ.get("MESHPORT") or str(ROOT / ".build" / "debug" / "meshport")
    if not os.access(path, os.X_OK):
        raise SystemExit(f"{path} is not an executable; run `swift build` first or set MESHPORT")
    return path


class Run:
    """One run's folder: isolated HOME and XDG folders, logs, and the processes it started."""

    def __init__(self, name):
        self.name = name
        self.dir = Path(tempfile.mkdtemp(prefix=f"meshport-{name}-"))
        home = self.dir / "home"
        self.env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"),
                        XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
                        XDG_CACHE_HOME=str(home / "cache"))
        for key in ("MESHPORT_DB", "MESHPORT_RADIO"):
            self.env.pop(key, None)
        self.processes = []

    def start(self, args, log, ready):
        """Starts `meshport ARGS`, output in LOG; waits for the line matching READY and returns
        (process, the match's first group)."""
        out = open(self.dir / log, "ab")
        proc = subprocess.Popen([meshport()] + args, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                                cwd=self.dir, start_new_session=True)
        out.close()
        self.processes.append(proc)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            match = re.search(ready, (self.dir / log).read_text(errors="replace")[-4000:])
            if match:
                return proc, match.group(1)
            if proc.poll() is not None:
                raise SystemExit(f"{self.name}: meshport {args[0]} ended ({proc.returncode}) before it was ready; see {self.dir / log}")
            time.sleep(0.05)
        raise SystemExit(f"{self.name}: meshport {args[0]} not ready within 60 s; see {self.dir / log}")

    def sim(self, messages, start_at=1.0, per_second=10.0):
        """`meshport sim` whose contact ann sends MESSAGES DMs "chaos N" at PER_SECOND from START_AT s."""
        events = [{"at": round(start_at + i / per_second, 3), "dm": {"from": SENDER, "text": f"chaos {i}"}}
                  for i in range(messages)]
        scenario = {"nodes": [{"id": SENDER, "knownPath": True}], "radio": {"offlineQueueSize": 1000}, "events": events}
        path = self.dir / "scenario.json"
        path.write_text(json.dumps(scenario))
        proc, url = self.start(["sim", "--scenario", str(path), "--listen", "tcp://127.0.0.1:0"], "sim.log",
                               r"listening on (tcp://\S+)")
        return proc, url, time.monotonic() + start_at + messages / per_second

    def serve(self, radio, db, extra=(), log="serve.log"):
        """`meshport serve` on RADIO with DB; returns (process, its http://HOST:PORT)."""
        return self.start(["serve", "--radio", radio, "--db", str(db), "--http", "127.0.0.1:0", "--stats-interval", "0"]
                          + list(extra), log, r"listening on (http://\S+)")

    def companion(self, log="serve.log"):
        """serve's companion port as tcp://HOST:PORT, once its log names it, else None."""
        # "companion for radio 0 (RADIO URL) on tcp://HOST:PORT": the port is the last address.
        match = re.search(r"companion for radio [^\n]* on tcp://(127\.0\.0\.1:\d+)", (self.dir / log).read_text(errors="replace"))
        return f"tcp://{match.group(1)}" if match else None

    def meshport(self, args, timeout=120):
        """Runs `meshport ARGS` to its end: (exit status, stdout, stderr)."""
        done = subprocess.run([meshport()] + args, capture_output=True, text=True, env=self.env, cwd=self.dir, timeout=timeout)
        return done.returncode, done.stdout, done.stderr

    def db_check(self, db):
        """`meshport db check`: None when ok, else its output."""
        status, out, err = self.meshport(["db", "check", "--db", str(db), "--json"])
        return None if status == 0 else (out + err).strip()

    def stop_all(self):
        for proc in self.processes:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def received(db, texts=None):
    """How often each received "chaos N" text is stored: {text: count}."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as c:
        rows = c.execute("SELECT text, count(*) FROM messages WHERE direction = 0 AND text LIKE 'chaos %' GROUP BY text").fetchall()
    return dict(rows)


def missing_and_twice(db, messages):
    """The "chaos N" messages not stored, and those stored more than once."""
    counts = received(db)
    missing = [i for i in range(messages) if f"chaos {i}" not in counts]
    twice = [t for t, n in counts.items() if n > 1]
    return missing, twice


def wait_for(condition, seconds, step=0.2):
    """Polls CONDITION until true or SECONDS pass; its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def merge_results(path, entries):
    """Adds figures {"name": {"value", "unit", "goal", "ok"}} to PATH (replaced whole, by rename)."""
    target = Path(path).resolve()
    data = json.loads(target.read_text()) if target.exists() else {}
    data.update(entries)
    temp = target.with_name(target.name + ".chaos-tmp")
    temp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    os.replace(temp, target)


def figure(value, unit, goal, ok):
    return {"value": value, "unit": unit, "goal": goal, "ok": bool(ok)}
