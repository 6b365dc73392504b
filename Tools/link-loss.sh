#!/usr/bin/env bash
# Link-loss soak: the suite's LinkLossTests with 1,000 seeded runs (the suite runs 100).
# Each run cuts links at random frames of initialization, contact sync, drain and send, and
# checks that every queued message is stored exactly once. Usage: Tools/link-loss.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000}"
swift build --build-tests
MESHPORT_LINK_LOSS_RUNS="$runs" swift test --skip-build --filter LinkLossTests
