#!/usr/bin/env bash
# BLE benchmark: Meshport's LE host (MeshportBLEBench, release build) against Bumble's own host
# (bumble_host_bench.py), each driving the same emulated world (Tools/BLE/world.py bridged to
# `meshport sim`), one after the other in the same run. Writes Meshport's and the peer's JSON to
# the files given. Usage: run.sh MESHPORT_JSON PEER_JSON [CONNECTS] [ROUND_TRIPS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out="$1"; peer_out="$2"; connects="${3:-5}"; trips="${4:-200}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

bin="$(Tools/release.sh --show-bin-path)"
"$bin/meshport" sim --listen tcp://127.0.0.1:0 --seed 5 >"$work/sim.out" 2>"$work/sim.err" &
pids+=($!)
for _ in $(seq 100); do grep -q "listening on" "$work/sim.out" 2>/dev/null && break; sleep 0.1; done
sim_port="$(sed -n 's/.*listening on tcp:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/sim.out" | head -1)"
[ -n "$sim_port" ] || { echo "meshport sim did not start"; cat "$work/sim.err"; exit 1; }

# A fresh world per client: each starts with no bonds, so both pair on every connect.
world() {
    # Emptied here: the child's own redirection truncates it only once the child runs, and the
    # last world's port must not be read meanwhile.
    : >"$work/world.out"
    .venv/bin/python Tools/BLE/world.py --port 0 --bridge "127.0.0.1:$sim_port" >"$work/world.out" 2>"$work/world.err" &
    world_pid=$!
    pids+=($world_pid)
    for _ in $(seq 100); do grep -q "WORLD READY" "$work/world.out" 2>/dev/null && break; sleep 0.1; done
    world_port="$(sed -n 's/.*tcp-server:127.0.0.1:\([0-9]*\).*/\1/p' "$work/world.out" | head -1)"
    [ -n "$world_port" ] || { echo "the BLE world did not start"; cat "$work/world.err"; exit 1; }
}

world
"$bin/MeshportBLEBench" "tcp:127.0.0.1:$world_port" F0:00:00:00:00:01 "$connects" "$trips" >"$out"
kill "$world_pid"; wait "$world_pid" 2>/dev/null || true
world
.venv/bin/python Tools/Benchmarks/BLE/bumble_host_bench.py "tcp-client:127.0.0.1:$world_port" F0:00:00:00:00:01 "$connects" "$trips" >"$peer_out"
