#!/usr/bin/env python3
"""The figures of `make reliability`, kept in one JSON file: {"name": {"value", "unit", "goal", "ok"}}.

Each part of the run (fuzzing, soak, chaos, ...) merges its figures in with `merge` (from
Python) or `results.py set` (from a shell script); `report` prints them all and fails when
any goal is missed.
Usage: results.py set FILE NAME VALUE UNIT GOAL OK      (OK: true or false)
       results.py report FILE
"""
import fcntl
import json
import os
import sys
import tempfile
from pathlib import Path


def load(path):
    """The figures so far; none when the file does not exist yet."""
    p = Path(path)
    if not p.exists():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise SystemExit(f"{path}: not JSON ({e}); remove it or fix it")
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: expected an object of figures, found {type(data).__name__}")
    return data


def merge(path, entries):
    """Adds or replaces figures, each {"value", "unit", "goal", "ok"}; the file is replaced whole
    (written beside it, then renamed) so a run killed halfway leaves the previous one."""
    for name, entry in entries.items():
        missing = {"value", "unit", "goal", "ok"} - set(entry)
        if missing:
            raise ValueError(f"figure {name} lacks {', '.join(sorted(missing))}")
    target = Path(path).resolve()
    # Parts running side by side (fuzz targets in parallel) merge one at a time: each reads
    # the others' figures under the lock, so none is overwritten.
    with open(target.parent / (target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = load(path)
        data.update(entries)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(temp, target)


def number(text):
    """A figure's value from the command line: an int or a float when it reads as one."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def report(path):
    """Prints every figure, one line each; returns how many missed their goal."""
    data = load(path)
    if not data:
        print(f"{path}: no figures")
        return 1
    width = max(len(name) for name in data)
    missed = 0
    for name in sorted(data):
        e = data[name]
        ok = e.get("ok") is True
        missed += not ok
        print(f"{'ok  ' if ok else 'MISS'} {name:<{width}}  {e.get('value')} {e.get('unit')} (goal {e.get('goal')})")
    print(f"{len(data) - missed} of {len(data)} goals met")
    return missed


def main(argv):
    if len(argv) == 8 and argv[1] == "set":
        _, _, path, name, value, unit, goal, ok = argv
        if ok not in ("true", "false"):
            raise SystemExit(f"OK is true or false, not {ok!r}")
        merge(path, {name: {"value": number(value), "unit": unit, "goal": goal, "ok": ok == "true"}})
        return 0
    if len(argv) == 3 and argv[1] == "report":
        return 1 if report(argv[2]) else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
