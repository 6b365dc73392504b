#!/usr/bin/env bash
# `make run`: MeshSim with its default mesh on a free TCP port, and a `meshport chat`
# session connected to it. Config and history live in a temporary folder (removed at the
# end), so nothing of the user's own meshport setup is touched. The sim stops with the chat.
set -euo pipefail
cd "$(dirname "$0")/.."

# The chat reaches the sim through the TCP driver, a plugin of its own.
swift build -q --product meshport
swift build -q --product MeshportDriverTCP
bin="$(swift build --show-bin-path)"
work="$(mktemp -d -t meshport-run.XXXXXX)"
sim_pid=""

cleanup() {
    if [ -n "$sim_pid" ] && kill -0 "$sim_pid" 2>/dev/null; then
        kill "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$bin/meshport" sim --listen tcp://127.0.0.1:0 >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!

# The sim's first line: "meshport sim: listening on tcp://127.0.0.1:PORT".
address=""
for _ in $(seq 1 100); do
    address="$(awk '/listening on/ {print $5; exit}' "$work/sim.out")"
    [ -n "$address" ] && break
    if ! kill -0 "$sim_pid" 2>/dev/null; then
        echo "meshport sim did not start:" >&2
        cat "$work/sim.err" >&2
        exit 1
    fi
    sleep 0.1
done
if [ -z "$address" ]; then
    echo "meshport sim did not say where it listens within 10 s" >&2
    exit 1
fi

echo "MeshSim (default mesh) on $address; chatting on Public. /help lists commands, /quit leaves."
XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" MESHPORT_RADIO="" MESHPORT_DB="" \
    "$bin/meshport" chat --radio "$address" "$@"
