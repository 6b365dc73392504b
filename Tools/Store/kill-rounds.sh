#!/usr/bin/env bash
# Crash test, long form: MeshportTestIngest (Tests/Tools/TestIngest) writes messages as fast
# as it can and is killed with SIGKILL a random few milliseconds into each round, ROUNDS times
# (default 100) on one file. After every kill the file must pass integrity_check and hold every message
# the child acknowledged (it prints `ack ID:SEQ` after each commit returns).
# The 20-round version runs in `swift test` (KillTests); this one is for soak runs.
# Usage: Tools/Store/kill-rounds.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-100}"
Tools/release.sh --product MeshportTestIngest >/dev/null
bin="$(Tools/release.sh --show-bin-path)/MeshportTestIngest"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/kill.db"
: >"$work/all.acks"
passed=0
failed=0
for round in $(seq 0 $((rounds - 1))); do
    # Emptied here: the child's own redirection truncates it only once the child runs, and the
    # last round's acknowledgements must not count.
    : >"$work/round.acks"
    "$bin" --db "$db" --start $((round * 1000000)) >"$work/round.acks" 2>"$work/round.err" &
    pid=$!
    # Wait for the first acknowledged commit (at most 30 s), then a random 1-25 ms more.
    for _ in $(seq 1 3000); do
        [ -s "$work/round.acks" ] && break
        sleep 0.01
    done
    sleep "$(printf '0.%03d' $((RANDOM % 25 + 1)))"
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
    # A line cut by the kill was never fully acknowledged.
    if [ -s "$work/round.acks" ] && [ -n "$(tail -c1 "$work/round.acks")" ]; then sed -i '$d' "$work/round.acks"; fi
    cat "$work/round.acks" >>"$work/all.acks"
    if [ ! -s "$work/round.acks" ]; then
        echo "round $round: FAILED (nothing acknowledged)"; cat "$work/round.err"; failed=$((failed + 1))
    elif "$bin" --db "$db" --verify "$work/round.acks" >"$work/verify.out" 2>&1; then
        passed=$((passed + 1))
    else
        echo "round $round: FAILED"; cat "$work/verify.out"; failed=$((failed + 1))
    fi
done
# Every round's acknowledgements, checked once more against the final file.
if "$bin" --db "$db" --verify "$work/all.acks" >"$work/verify.out" 2>&1; then
    echo "all rounds: $(grep acknowledged "$work/verify.out")"
else
    echo "all rounds: FAILED"; cat "$work/verify.out"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
