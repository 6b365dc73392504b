#!/usr/bin/env bash
# Writes meshport.1 into OUTPUT_DIR with swift-argument-parser's generate-manual tool (the tool
# behind its GenerateManual plugin), built in the release scratch folder from the package's own
# swift-argument-parser checkout: no network, no second build of meshport.
# Usage: Packaging/deb/manual.sh MESHPORT_BINARY OUTPUT_DIR
set -euo pipefail
binary="$1"
output="$2"
cd "$(dirname "$0")/../.."
Tools/release.sh --target generate-manual
"$(Tools/release.sh --show-bin-path)/generate-manual" "$binary" --output-directory "$output" \
    --section 1 --authors "Meshport maintainers" >/dev/null
test -s "$output/meshport.1" || { echo "manual.sh: generate-manual wrote no $output/meshport.1" >&2; exit 1; }
