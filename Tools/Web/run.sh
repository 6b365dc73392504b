#!/usr/bin/env bash
# `make test-web`: the web UI in headless chromium (Selenium + chromium-driver) against
# `meshport serve` on `meshport sim` (Tools/Web/browser_test.py). Screenshots of every check
# go to artifacts/web/. The last line is "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.."

for product in meshport MeshportDriverTCP; do
    if ! swift build -q --product "$product" >/tmp/meshport-web-build.$$ 2>&1; then
        tail -30 /tmp/meshport-web-build.$$
        rm -f /tmp/meshport-web-build.$$
        echo "0 passed, 1 failed"
        exit 1
    fi
done
rm -f /tmp/meshport-web-build.$$
for tool in "${CHROMIUM:-/usr/bin/chromium}" "${CHROMEDRIVER:-/usr/bin/chromedriver}"; do
    if [ ! -x "$tool" ]; then
        echo "test-web: $tool is missing (make deps installs chromium and chromium-driver)"
        echo "0 passed, 1 failed"
        exit 1
    fi
done
artifacts="$(pwd)/artifacts/web"
rm -rf "$artifacts"
.venv/bin/python Tools/Web/browser_test.py "$(swift build --show-bin-path)/meshport" "$artifacts"
