#!/usr/bin/env bash
# The reference client meshcore_py against MeshSim: starts `meshport sim` over TCP and runs
# sim_interop.py against it, then the same over the sim's pty (as a serial port). Each run gets
# its own simulator, stopped afterwards whatever happens. The script's own summary lines are
# shown as "tcp: ..." / "pty: ..."; the last line is the sum, "N passed, M failed" (a run that
# cannot start, or ends without a summary, counts as one failure). Exit status 1 if anything failed.
# Usage: Tools/Interop/run-sim-interop.sh [sim_interop.py options, e.g. --min-contacts 20]
# MESHPORT=path runs another meshport binary (default .build/debug/meshport, built when stale).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

py=.venv/bin/python
script=Tools/Interop/sim_interop.py
scenario=Tools/Interop/sim-interop.json
announce_limit=60          # seconds to wait for the simulator's announce line
bin="${MESHPORT:-.build/debug/meshport}"

work="$(mktemp -d "${TMPDIR:-/tmp}/meshport-sim-interop.XXXXXX")"
sim_pid=""
run_pid=""
stop_sim() {
    if [ -n "$sim_pid" ]; then
        kill -TERM "$sim_pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$sim_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$sim_pid" 2>/dev/null
        wait "$sim_pid" 2>/dev/null
        sim_pid=""
    fi
}
trap '[ -n "$run_pid" ] && kill -TERM "$run_pid" 2>/dev/null; stop_sim; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

if [ ! -x "$py" ]; then
    echo "run-sim-interop: $py not found; run 'make venv' first"
    echo "0 passed, 1 failed"
    exit 1
fi

# Build only when the binary is missing or older than the sources it is made of.
if [ -z "${MESHPORT:-}" ] && { [ ! -x "$bin" ] || [ -n "$(find Modules Plugins Package.swift Package.resolved -newer "$bin" -print -quit 2>/dev/null)" ]; }; then
    echo "run-sim-interop: building meshport"
    if ! swift build --product meshport >"$work/build.log" 2>&1; then
        tail -30 "$work/build.log"
        echo "run-sim-interop: build failed"
        echo "0 passed, 1 failed"
        exit 1
    fi
fi

sim_args=()
if [ -f "$scenario" ]; then
    if "$bin" sim --help 2>&1 | grep -q -- '--scenario'; then
        sim_args=(--scenario "$scenario")
        echo "run-sim-interop: scenario $scenario"
    else
        echo "run-sim-interop: $scenario exists but this meshport sim has no --scenario option; running the built-in mesh"
    fi
else
    echo "run-sim-interop: no $scenario yet; running the built-in 20-node mesh (checks that need hundreds of contacts will fail)"
fi

passed=0
failed=0

# run_one NAME PATTERN SIM_FLAGS... -- SCRIPT_FLAG
#   starts the simulator with SIM_FLAGS, waits for its announce line, takes what PATTERN (a sed -E
#   expression with one group) extracts from it, and runs the script with SCRIPT_FLAG <that>.
run_one() {
    local name="$1" pattern="$2"
    shift 2
    local sim_flags=()
    while [ "$1" != "--" ]; do sim_flags+=("$1"); shift; done
    local flag="$2"
    local out="$work/$name.sim.out" err="$work/$name.sim.err" log="$work/$name.log"

    printf '\n=== %s ===\n' "$name"
    "$bin" sim "${sim_flags[@]}" "${sim_args[@]}" >"$out" 2>"$err" &
    sim_pid=$!
    local where="" waited=0
    while [ "$waited" -lt $((announce_limit * 10)) ]; do
        where="$(sed -nE "s/$pattern/\\1/p" "$out" | head -1)"
        [ -n "$where" ] && break
        kill -0 "$sim_pid" 2>/dev/null || break
        sleep 0.1
        waited=$((waited + 1))
    done
    if [ -z "$where" ]; then
        local why="did not announce itself within ${announce_limit} s"
        if ! kill -0 "$sim_pid" 2>/dev/null; then
            wait "$sim_pid" 2>/dev/null
            why="exited with status $? before announcing itself"
            sim_pid=""
        fi
        echo "FAIL $name: $bin sim ${sim_flags[*]}${sim_args[*]:+ ${sim_args[*]}} $why"
        sed 's/^/    sim stdout: /' "$out"
        tail -20 "$err" | sed 's/^/    sim stderr: /'
        stop_sim
        failed=$((failed + 1))
        return
    fi

    # In the background, so that a signal to this script is acted on at once (bash runs traps
    # only between foreground commands); shown as it comes, its summary line prefixed.
    : >"$work/$name.raw"   # exists before tail opens it, whenever the background job starts
    "$py" "$script" "$flag" "$where" "${script_args[@]}" >"$work/$name.raw" 2>&1 &
    run_pid=$!
    tail -n +1 -f --pid="$run_pid" "$work/$name.raw" | sed -u -E "s/^([0-9]+ passed, [0-9]+ failed)$/$name: \\1/" | tee "$log" &
    local show_pid=$!
    wait "$run_pid"
    run_pid=""
    wait "$show_pid"
    stop_sim
    # What the simulator said besides its stop line (its own errors belong to the findings).
    grep -v '^meshport sim: stopped by' "$err" | sed 's/^/    sim stderr: /'

    local line
    line="$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed$" "$log" | tail -1)"
    if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | awk '{print $2}')))
        failed=$((failed + $(echo "$line" | awk '{print $4}')))
    else
        echo "FAIL $name: sim_interop.py ended without a summary line"
        failed=$((failed + 1))
    fi
}

script_args=("$@")
run_one tcp '^meshport sim: listening on tcp:\/\/([0-9.]+:[0-9]+)$' --listen tcp://127.0.0.1:0 -- --tcp
run_one pty '^meshport sim: serving on (\/[^ ]+) .*$' --pty -- --serial

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
