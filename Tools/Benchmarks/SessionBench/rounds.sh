#!/usr/bin/env bash
# The session benchmark's rounds: for each round and each client (Meshport's RadioSession,
# meshcore_py, and the floor: a bare socket with MeshCodec), a fresh `meshport sim` with
# session-bench.json, so every client faces the same radio state (1,000 contacts, a full
# queue of 1,000 messages); the client runs its workload and prints one JSON object, then the
# sim is stopped. Round 0 is a warm-up and is thrown away. The order of the clients turns
# with each round, so none always goes first.
# Usage: rounds.sh MESHPORT_BIN SESSION_BENCH_BIN ROUNDS OUT_JSON
# Writes OUT_JSON: {"rounds": N, "meshport": [...], "meshcore_py": [...], "floor": [...]}.
set -euo pipefail
cd "$(dirname "$0")/../../.."
meshport="$1" bench="$2" rounds="$3" out="$4"
scenario=Tools/Benchmarks/SessionBench/session-bench.json
round_trips=500 contact_syncs=5 contacts=1000 messages=1000
work="$(mktemp -d)"
sim_pid=""
stop_sim() {
    if [ -n "$sim_pid" ]; then
        kill -TERM "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
        sim_pid=""
    fi
}
trap 'stop_sim; rm -rf "$work"' EXIT

# start_sim: a fresh simulator; sets sim_pid and address (HOST:PORT).
start_sim() {
    # Emptied here: the child's own redirection truncates it only once the child runs, and the
    # last sim's address must not be read meanwhile.
    : >"$work/sim.out"
    "$meshport" sim --scenario "$scenario" --listen tcp://127.0.0.1:0 >"$work/sim.out" 2>"$work/sim.err" &
    sim_pid=$!
    address=""
    for _ in $(seq 300); do
        address="$(sed -nE 's#^meshport sim: listening on tcp://([0-9.]+:[0-9]+)$#\1#p' "$work/sim.out")"
        [ -n "$address" ] && return 0
        kill -0 "$sim_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "session: meshport sim did not start:" >&2
    cat "$work/sim.err" >&2
    exit 1
}

run_client() {
    case "$1" in
        meshport) "$bench" meshport "tcp://$address" "$round_trips" "$contact_syncs" "$contacts" "$messages" ;;
        floor) "$bench" floor "tcp://$address" "$round_trips" "$contact_syncs" "$contacts" "$messages" ;;
        meshcore_py) .venv/bin/python Tools/Benchmarks/peer/meshcore_py_session_bench.py "$address" --round-trips "$round_trips" \
                         --contact-syncs "$contact_syncs" --contacts "$contacts" --messages "$messages" ;;
    esac
}

clients=(meshport meshcore_py floor)
for round in $(seq 0 "$rounds"); do
    for i in 0 1 2; do
        client="${clients[$(( (i + round) % 3 ))]}"
        label="round $round/$rounds"
        [ "$round" -eq 0 ] && label="warm-up round"
        echo "session: $label, $client..." >&2
        start_sim
        if ! run_client "$client" >"$work/line.json"; then
            echo "session: $client failed against the sim at $address" >&2
            exit 1
        fi
        stop_sim
        [ "$round" -gt 0 ] && cat "$work/line.json" >>"$work/$client.jsonl"
    done
done

join() { paste -sd, "$work/$1.jsonl"; }
printf '{"rounds": %d, "meshport": [%s], "meshcore_py": [%s], "floor": [%s]}\n' \
    "$rounds" "$(join meshport)" "$(join meshcore_py)" "$(join floor)" >"$out"
