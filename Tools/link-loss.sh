#!/usr/bin/env bash
# Link-loss soak: the suite's LinkLossTests over RUNS seeds (default 1,000; the suite runs
# seeds 0-99), in batches of 100. Each run cuts links at random frames of initialization,
# contact sync, drain and send, and checks that every queued message is stored exactly once
# and every sent one is stored once, delivered or failed with its reason.
# Usage: Tools/link-loss.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000}"
swift build --build-tests
failed=0
for ((first = 0; first < runs; first += 100)); do
    if MESHPORT_LINK_LOSS_FIRST_SEED="$first" swift test --skip-build --filter LinkLossTests > ".build/link-loss-$first.log" 2>&1; then
        echo "seeds $first-$((first + 99)): passed"
    else
        echo "seeds $first-$((first + 99)): FAILED (.build/link-loss-$first.log)"
        failed=$((failed + 1))
    fi
done
echo "$((runs / 100 - failed)) batches passed, $failed failed"
[ "$failed" -eq 0 ]
