#!/usr/bin/env bash
# `make run`: MeshSim with its default mesh on a free TCP port, and `meshport serve` on it,
# listening on 127.0.0.1 (port $PORT, default 8080; 0 takes a free one). Prints the URL. Config
# and history live in a temporary folder (removed at the end), so nothing of the user's own
# meshport setup is touched. Ctrl-C stops the server, then the sim.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -q --product meshport
swift build -q --product MeshportDriverTCP
bin="$(swift build --show-bin-path)"
work="$(mktemp -d -t meshport-serve.XXXXXX)"
sim_pid=""
serve_pid=""

stop() {
    local pid="$1"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
}
cleanup() {
    stop "$serve_pid"
    stop "$sim_pid"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# Waits (10 s at most) for a line of FILE matching PATTERN and prints its field FIELD.
announced() {
    local file="$1" pattern="$2" field="$3" pid="$4" value=""
    for _ in $(seq 1 100); do
        value="$(awk -v f="$field" "/$pattern/ {print \$f; exit}" "$file")"
        [ -n "$value" ] && { echo "$value"; return 0; }
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

"$bin/meshport" sim --listen tcp://127.0.0.1:0 >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!
# "meshport sim: listening on tcp://127.0.0.1:PORT"
if ! address="$(announced "$work/sim.out" "listening on" 5 "$sim_pid")"; then
    echo "meshport sim did not start:" >&2
    cat "$work/sim.err" >&2
    exit 1
fi

XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" MESHPORT_RADIO="" MESHPORT_DB="" \
    "$bin/meshport" serve --radio "$address" --http "127.0.0.1:${PORT:-8080}" --db "$work/data/meshport.db" "$@" \
    > >(tee "$work/serve.out") &
serve_pid=$!
# "meshport serve: listening on http://127.0.0.1:PORT"
if ! url="$(announced "$work/serve.out" "listening on http" 5 "$serve_pid")"; then
    echo "meshport serve did not start" >&2
    exit 1
fi
echo "MeshSim (default mesh) on $address; open $url (Ctrl-C stops)"
wait "$serve_pid"
