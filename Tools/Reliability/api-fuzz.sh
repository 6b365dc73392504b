#!/usr/bin/env bash
# API fuzzing: builds meshport and the TCP driver, then runs Tools/Reliability/api_fuzz.py
# (schemathesis against `meshport serve` on `meshport sim`) with the given options: `make test`
# a short run, `make api-fuzz` (part of `make reliability`) a long one. The last line is
# "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.."

for product in meshport MeshportDriverTCP; do
    if ! swift build -q --product "$product" >/tmp/meshport-api-fuzz-build.$$ 2>&1; then
        tail -30 /tmp/meshport-api-fuzz-build.$$
        rm -f /tmp/meshport-api-fuzz-build.$$
        echo "0 passed, 1 failed"
        exit 1
    fi
done
rm -f /tmp/meshport-api-fuzz-build.$$
exec .venv/bin/python Tools/Reliability/api_fuzz.py "$(swift build --show-bin-path)/meshport" "$@"
