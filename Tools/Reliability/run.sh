#!/usr/bin/env bash
# `make reliability`: the long runs of issue 28, each merging its figures into
# reliability-results.json (Tools/Reliability/results.py), then the report of them all.
# Bounded: every part stops by itself. Not part of `make test`.
# Environment: FUZZ_SECONDS  the time bound of each fuzz target (default 3,600 s); each also
#                            stops at 10 million executions, the goal.
#              FUZZ_JOBS     how many fuzz targets run at once (default: the number of cores).
#              API_FUZZ_EXAMPLES  schemathesis examples per operation and phase (default 500).
#              SOAK_MINUTES  the soak's length (default 30).
set -uo pipefail
cd "$(dirname "$0")/../.."
results=reliability-results.json
rm -f "$results"
status=0

echo "=== fuzzing: every target to 10 million executions or ${FUZZ_SECONDS:-3600} s ==="
FUZZ_RESULTS="$results" Tools/Fuzz/run.sh --long "${FUZZ_SECONDS:-3600}" || status=1

echo
echo "=== API fuzzing: ${API_FUZZ_EXAMPLES:-500} examples per operation and phase ==="
Tools/Reliability/api-fuzz.sh --examples "${API_FUZZ_EXAMPLES:-500}" --results "$results" || status=1

echo
echo "=== soak: meshport serve under steady use for ${SOAK_MINUTES:-30} minutes (Tools/Reliability/soak.py) ==="
SOAK_MINUTES="${SOAK_MINUTES:-30}" .venv/bin/python Tools/Reliability/soak.py --results "$results" || status=1

echo
echo "=== chaos and two writers (Tools/Reliability/chaos.py) ==="
python3 Tools/Reliability/chaos.py --results "$results" || status=1

echo
echo "=== report ($results) ==="
python3 Tools/Reliability/results.py report "$results" || status=1
exit "$status"
