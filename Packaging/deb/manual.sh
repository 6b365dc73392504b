#!/usr/bin/env bash
# Writes meshport.1 into OUTPUT_DIR with swift-argument-parser's GenerateManual plugin (offline:
# the package's own checkout). The plugin builds every product in the configuration it is given
# and reads each executable's --experimental-dump-help; debug reuses the build `swift build`
# and `make test` keep in .build, where release would be a second optimized build without
# Tools/release.sh's flags. The text is the same in both: it comes from the command's definitions.
# Usage: Packaging/deb/manual.sh OUTPUT_DIR
set -euo pipefail
output="$1"
cd "$(dirname "$0")/../.."
swift package generate-manual --configuration debug --section 1 --authors "Meshport maintainers" > "$output.log" 2>&1 \
    || { cat "$output.log" >&2; exit 1; }
page=$(find .build/plugins/GenerateManual -path '*/meshport/meshport.1' | head -1)
test -s "$page" || { cat "$output.log" >&2; echo "manual.sh: the plugin wrote no meshport.1" >&2; exit 1; }
mkdir -p "$output"
cp "$page" "$output/meshport.1"
