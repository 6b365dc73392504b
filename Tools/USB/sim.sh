# Sourced by the USB scripts: `meshport sim` on a free port for one QEMU guest device.
#   start_sim BIN LOG   starts one; sets sim_port (empty when it did not start); call it
#                       again for a second device
#   start_world LOG     the emulated BLE world (Tools/BLE/world.py, from .venv) on a free port,
#                       its radio F0:00:00:00:00:01 bridged to the last sim started; sets
#                       world_port, the controller's H4 port (empty when it did not start)
#   stop_sim            stops every one started, worlds too (TERM, then KILL after 5 s)
sim_pids=()
sim_port=""

start_sim() {
    : >"$2"   # emptied first: an earlier run's log, read before the child truncates it, would give its port
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

start_world() {
    : >"$1"
    # --drop-on-bridge-close: the sim closing its side drops the BLE link, as a radio that reboots.
    .venv/bin/python Tools/BLE/world.py --port 0 --bridge "127.0.0.1:$sim_port" --drop-on-bridge-close >"$1" 2>&1 &
    sim_pids+=($!)
    world_port=""
    for _ in $(seq 200); do   # Bumble takes a few seconds on a loaded machine
        world_port=$(sed -n 's/^WORLD READY transport=tcp-server:127.0.0.1:\([0-9]*\).*/\1/p' "$1")
        [ -n "$world_port" ] && return 0
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
