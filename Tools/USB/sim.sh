# Sourced by the USB scripts: `meshport sim` on a free port for one QEMU guest.
#   start_sim BIN LOG   starts it; sets sim_pid and sim_port (empty when it did not start)
#   stop_sim            stops it (TERM, then KILL after 5 s)
sim_pid=""
sim_port=""

start_sim() {
    "$1" sim --listen tcp://127.0.0.1:0 >"$2" 2>&1 &
    sim_pid=$!
    sim_port=""
    for _ in $(seq 100); do
        sim_port=$(sed -n 's/^meshport sim: listening on tcp:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$2")
        [ -n "$sim_port" ] && return 0
        sleep 0.1
    done
    return 1
}

stop_sim() {
    [ -n "$sim_pid" ] || return 0
    kill -TERM "$sim_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$sim_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$sim_pid" 2>/dev/null
    wait "$sim_pid" 2>/dev/null
    sim_pid=""
}
