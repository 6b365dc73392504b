# Sourced by the USB scripts: `meshport sim` on a free port for one QEMU guest device.
#   start_sim BIN LOG   starts one; sets sim_port (empty when it did not start); call it
#                       again for a second device
#   stop_sim            stops every one started (TERM, then KILL after 5 s)
sim_pids=()
sim_port=""

start_sim() {
    "$1" sim --listen tcp://127.0.0.1:0 >"$2" 2>&1 &
    sim_pids+=($!)
    sim_port=""
    for _ in $(seq 100); do
        sim_port=$(sed -n 's/^meshport sim: listening on tcp:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$2")
        [ -n "$sim_port" ] && return 0
        sleep 0.1
    done
    return 1
}

# Safe under `set -e`: a simulator that already ended is not an error.
stop_sim() {
    local pid
    for pid in "${sim_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${sim_pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    sim_pids=()
}
