#!/usr/bin/env python3
"""Merges one benchmark group into bench-results.json and prints it as a table.

Each entry: {"value": x, "unit": "...", "peer": "<what it was compared with>", "peer_value": y, "ratio": x / y}
(ratio > 1 means Meshport is faster). Entries of other groups already in the file are kept.
"""
import json
import os
import sys


def codec(ours, peer):
    version = peer.get("meshcore_version", "?")
    out = {}
    for key, label in (("decode", "decode (MessageReader + event dispatch)"), ("framing", "stream framing (serial reader, 64-byte chunks)")):
        for metric, unit in (("frames_per_s", "frames/s"), ("mb_per_s", "MB/s")):
            name = f"codec.{key}.{metric}"
            value, peer_value = ours[key][metric], peer[key][metric]
            out[name] = {"value": round(value, 2), "unit": unit, "peer": f"meshcore_py {version} {label}",
                         "peer_value": round(peer_value, 2), "ratio": round(value / peer_value, 2)}
    if "framing_no_dispatch" in peer:
        value, peer_value = ours["framing"]["frames_per_s"], peer["framing_no_dispatch"]["frames_per_s"]
        out["codec.framing_only.frames_per_s"] = {"value": round(value, 2), "unit": "frames/s",
                                                  "peer": f"meshcore_py {version} frame reassembly without dispatch",
                                                  "peer_value": round(peer_value, 2), "ratio": round(value / peer_value, 2)}
    return out


GROUPS = {"codec": codec}


def main():
    group, ours_path, peer_path, results_path = sys.argv[1:5]
    with open(ours_path) as f:
        ours = json.load(f)
    with open(peer_path) as f:
        peer = json.load(f)
    entries = GROUPS[group](ours, peer)
    results = {}
    if os.path.exists(results_path):
        with open(results_path) as f:
            results = json.load(f)
    results.update(entries)
    with open(results_path, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{'benchmark':40} {'Meshport':>14} {'peer':>14} {'ratio':>8}  unit")
    for name, e in sorted(entries.items()):
        print(f"{name:40} {e['value']:>14,.1f} {e['peer_value']:>14,.1f} {e['ratio']:>7.1f}x  {e['unit']}  (peer: {e['peer']})")
    print(f"written to {results_path}")


if __name__ == "__main__":
    main()
