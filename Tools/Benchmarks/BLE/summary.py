#!/usr/bin/env python3
"""
Merges the BLE benchmark's per-run JSON lines into one object and prints a table.

Usage: summary.py BUMBLE_RUNS.jsonl MESHPORT_RUNS.jsonl|- OUT.json
Each input line is one run of bumble_host_bench.py (or of the Meshport command, same keys).
OUT.json: {"runs": N, "bumble": {...}, "meshport": {...} | null, "ratio": {...} | null,
           "bumble_runs": [...], "meshport_runs": [...]}
where each figure is the median over runs of that run's median (round trips: also of its
mean), and ratio = Bumble / Meshport (times: above 1 means Meshport is faster).
"""
import json
import statistics
import sys

FIGURES = [
    ('connect_pair_first_frame_s', 'median', 'connect + SC passkey pairing + APP_START -> SELF_INFO', 's'),
    ('round_trip_s', 'median', 'GET_DEVICE_TIME -> CURR_TIME round trip, median', 's'),
    ('round_trip_s', 'mean', 'GET_DEVICE_TIME -> CURR_TIME round trip, mean', 's'),
    ('round_trip_cpu_s', None, 'client CPU per round trip', 's'),
]


def load(path):
    if path == '-':
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def summarize(runs):
    if not runs:
        return None
    out = {}
    for key, sub, _, _ in FIGURES:
        values = [r[key][sub] if sub else r[key] for r in runs]
        out[f'{key}.{sub}' if sub else key] = statistics.median(values)
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    bumble_runs, meshport_runs = load(sys.argv[1]), load(sys.argv[2])
    bumble, meshport = summarize(bumble_runs), summarize(meshport_runs)
    ratio = {k: bumble[k] / meshport[k] for k in bumble if meshport.get(k)} if meshport else None
    version = bumble_runs[0].get('bumble_version') if bumble_runs else None
    with open(sys.argv[3], 'w') as f:
        json.dump({'runs': len(bumble_runs), 'bumble_version': version, 'bumble': bumble,
                   'meshport': meshport, 'ratio': ratio, 'bumble_runs': bumble_runs,
                   'meshport_runs': meshport_runs}, f, indent=1, sort_keys=True)
    print(f'BLE host on the emulated world bridged to meshport sim, {len(bumble_runs)} run(s), '
          f'median of per-run figures (ms):')
    header = f'{"":58} {"Bumble " + (version or ""):>16}'
    if meshport:
        header += f' {"Meshport":>10} {"ratio":>7}'
    print(header)
    for key, sub, label, _ in FIGURES:
        name = f'{key}.{sub}' if sub else key
        line = f'{label:58} {bumble[name] * 1000:16.3f}'
        if meshport:
            line += f' {meshport[name] * 1000:10.3f} {ratio.get(name, float("nan")):7.2f}'
        print(line)
    if meshport:
        print('ratio = Bumble / Meshport: above 1 means Meshport is faster.')


if __name__ == '__main__':
    main()
