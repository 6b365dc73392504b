#!/usr/bin/env bash
# Regenerates Tools/Link/meshport.order, the function order the release `meshport` is linked with
# (Docs/server.md, "Memory"): the release build runs `meshport serve` with Tools/Link/pagetouch.so
# preloaded (Tools/Link/order.py), is linked again in the order found, and is profiled again,
# ROUNDS times (default 5), each round adding what it finds. About 3 minutes after a release
# build. Run it after large changes to the server or its dependencies. Names that no longer
# exist are skipped by the linker, so a stale order costs memory, never correctness.
#   make-order.sh [ROUNDS]     (--fresh as the first argument starts from an empty order)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--fresh" ]; then : >Tools/Link/meshport.order; shift; fi
rounds="${1:-5}"
bin="$(Tools/release.sh --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# SwiftPM does not see the order file change: the executable is removed to be linked again.
relink() { rm -f "$bin/meshport"; Tools/release.sh --product meshport >/dev/null; }
relink
Tools/release.sh --product MeshportDriverTCP >/dev/null
clang -O2 -shared -fPIC -o "$bin/pagetouch.so" Tools/Link/pagetouch.c
for _ in $(seq "$rounds"); do
    python3 Tools/Link/order.py profile "$bin/meshport" "$bin/pagetouch.so" "$work/found"
    python3 Tools/Link/order.py merge Tools/Link/meshport.order "$work/found" "$work/merged"
    cp "$work/merged" Tools/Link/meshport.order
    relink
done
