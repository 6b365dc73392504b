#!/usr/bin/env bash
# Contact sync on a serial line (issue 28: 1,000 contacts within 1.1x of the wire time at
# 115,200 Bd): `meshport sim --pty --baud BAUD` with session-bench.json (1,000 contacts), whose
# pty carries bytes at that speed both ways, and MeshportSessionBench's `serial` mode through
# the serial driver plugin (SerialSync.swift): one warm-up sync, then SYNCS timed ones.
# Usage: serial-sync.sh MESHPORT_BIN SESSION_BENCH_BIN BAUD SYNCS OUT_JSON
set -euo pipefail
cd "$(dirname "$0")/../../.."
meshport="$1" bench="$2" baud="$3" syncs="$4" out="$5"
work="$(mktemp -d)"
"$meshport" sim --scenario Tools/Benchmarks/SessionBench/session-bench.json --pty --baud "$baud" >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!
trap 'kill -TERM "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
pty=""
for _ in $(seq 300); do
    pty="$(sed -nE 's#^meshport sim: serving on (/dev/pts/[0-9]+) .*#\1#p' "$work/sim.out")"
    [ -n "$pty" ] && break
    kill -0 "$sim_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$pty" ]; then
    echo "serial: meshport sim did not start:" >&2
    cat "$work/sim.err" >&2
    exit 1
fi
"$bench" serial "serial://$pty?baud=$baud" "$syncs" 1000 >"$out"
