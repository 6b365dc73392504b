#!/usr/bin/env bash
# `make bench`: measures Meshport against its peers in the same run and writes
# bench-results.json ({"name": {"value", "unit", "peer", "ratio"}}), printing a table.
set -euo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --product MeshportBench >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
bin="$(swift build -c release --show-bin-path)/MeshportBench"

echo "codec: Meshport (release build)..."
"$bin" "$work/corpus.txt" 2000 >"$work/meshport.json"
echo "codec: meshcore_py on the same corpus..."
.venv/bin/python Tools/Benchmarks/peer/meshcore_py_parse_bench.py "$work/corpus.txt" >"$work/peer.json"

.venv/bin/python Tools/Benchmarks/report.py codec "$work/meshport.json" "$work/peer.json" bench-results.json
