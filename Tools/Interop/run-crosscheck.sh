#!/usr/bin/env bash
# Cross-checks MeshCodec against the reference client meshcore_py: the Swift exporter writes
# frames and commands built with our codec (and what our decoder reads back), then
# codec_crosscheck.py feeds them to meshcore_py and compares. Output and exit status are the
# script's; its last line is "N passed, M failed".
# Usage: Tools/Interop/run-crosscheck.sh [codec_crosscheck.py options, e.g. -q]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

export_json="$(mktemp "${TMPDIR:-/tmp}/meshport-crosscheck.XXXXXX")"
trap 'rm -f "$export_json"' EXIT

swift run -q MeshportInteropExport "$export_json"

status=0
.venv/bin/python Tools/Interop/codec_crosscheck.py "$@" "$export_json" || status=$?
exit "$status"
