#!/usr/bin/env bash
# The BLE host benchmark: Bumble's own LE host (bumble_host_bench.py) and, when it is given,
# Meshport's (MESHPORT_BLE_BENCH) against the same emulated world (Tools/BLE/world.py)
# bridged to the same `meshport sim`, RUNS times each, taking turns.
#
# Usage: Tools/Benchmarks/BLE/run.sh [RUNS] [CONNECTS] [ROUND_TRIPS] [OUT_JSON]
#   defaults: 5 runs of 5 connects and 200 round trips; OUT_JSON (all figures, see summary.py)
#   is kept only when given
# Environment:
#   MESHPORT_BLE_BENCH  the Meshport-side command, run as `$MESHPORT_BLE_BENCH HCI ADDRESS
#                       CONNECTS ROUND_TRIPS` and printing one JSON object with the peer's keys,
#                       e.g. "$(swift build -c release --show-bin-path)/MeshportBLEBench".
#                       Unset: only Bumble's figures are printed (and said so).
#   MESHPORT            the meshport executable serving `meshport sim` (default: a release
#                       build, made here if needed).
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs="${1:-5}" connects="${2:-5}" round_trips="${3:-200}" out="${4:-}"
radio="F0:00:00:00:00:01"
work="$(mktemp -d)"
[ -n "$out" ] || out="$work/ble.json"
sim_pid="" world_pid=""

stop() {
    for pid in "$world_pid" "$sim_pid"; do
        if [ -n "$pid" ]; then
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
}
trap 'stop; rm -rf "$work"' EXIT

if [ ! -x .venv/bin/python ]; then
    echo "ble: no .venv: run 'make venv' first" >&2
    exit 1
fi
if [ -z "${MESHPORT:-}" ]; then
    swift build -c release --product meshport >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    MESHPORT="$(swift build -c release --show-bin-path)/meshport"
fi

# first_line FILE PID WHAT: waits (at most 30 s) for the first line a child prints.
first_line() {
    for _ in $(seq 300); do
        if [ -s "$1" ] && [ "$(wc -l <"$1")" -ge 1 ]; then head -1 "$1"; return 0; fi
        kill -0 "$2" 2>/dev/null || break
        sleep 0.1
    done
    echo "ble: $3 did not start:" >&2
    cat "$work"/*.err >&2
    exit 1
}

"$MESHPORT" sim --listen tcp://127.0.0.1:0 >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!
sim_address="$(first_line "$work/sim.out" "$sim_pid" "meshport sim" | awk '{print $5}')"  # tcp://127.0.0.1:PORT
# Connecting waits for the radio's next advertisement: every 20 ms here, so that wait (the
# emulator's, not the host's) stays small beside the pairing both hosts do.
.venv/bin/python Tools/BLE/world.py --port 0 --adv-interval 20 --bridge "${sim_address#tcp://}" >"$work/world.out" 2>"$work/world.err" &
world_pid=$!
# WORLD READY transport=tcp-server:127.0.0.1:PORT ...
hci="tcp:$(first_line "$work/world.out" "$world_pid" "Tools/BLE/world.py" | sed -nE 's/.*transport=tcp-server:([0-9.]+:[0-9]+).*/\1/p')"

if [ -z "${MESHPORT_BLE_BENCH:-}" ]; then
    echo "ble: MESHPORT_BLE_BENCH is not set: measuring Bumble's host only (no Meshport figures, no ratio)."
fi
: >"$work/bumble.jsonl"
: >"$work/meshport.jsonl"
echo "ble: $runs run(s) of $connects connect(s) and $round_trips round trip(s) on $hci ($radio) bridged to $sim_address..."
for i in $(seq "$runs"); do
    # Take turns, so neither client always meets the world first.
    if [ $((i % 2)) -eq 1 ]; then order="bumble meshport"; else order="meshport bumble"; fi
    for client in $order; do
        case "$client" in
            bumble) .venv/bin/python Tools/Benchmarks/BLE/bumble_host_bench.py "$hci" "$radio" "$connects" "$round_trips" >>"$work/bumble.jsonl" ;;
            meshport) [ -z "${MESHPORT_BLE_BENCH:-}" ] || $MESHPORT_BLE_BENCH "$hci" "$radio" "$connects" "$round_trips" >>"$work/meshport.jsonl" ;;
        esac
    done
done

meshport_runs="-"
[ -s "$work/meshport.jsonl" ] && meshport_runs="$work/meshport.jsonl"
.venv/bin/python Tools/Benchmarks/BLE/summary.py "$work/bumble.jsonl" "$meshport_runs" "$out"
[ -n "${4:-}" ] && echo "ble: all figures in $out"
exit 0
