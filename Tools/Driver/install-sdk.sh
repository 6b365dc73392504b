#!/usr/bin/env bash
# Installs what a driver built outside this repository needs (Docs/plugin-authoring.md):
#   PREFIX/include/meshport/meshport_driver.h
#   PREFIX/lib/pkgconfig/meshport-driver.pc         (absolute paths under PREFIX)
# Usage: Tools/Driver/install-sdk.sh PREFIX   (DESTDIR, when set, is put in front, as packagers do)
set -euo pipefail

if [ $# -ne 1 ] || [ "${1#/}" = "$1" ]; then
    echo "usage: $0 PREFIX (an absolute path, e.g. /usr/local)" >&2
    exit 2
fi
prefix=${1%/}
abi="$(cd "$(dirname "$0")/../../Modules/MeshDriverABI" && pwd)"
root="${DESTDIR:-}$prefix"

install -d "$root/include/meshport" "$root/lib/pkgconfig"
install -m 644 "$abi/include/meshport_driver.h" "$root/include/meshport/"
# The checkout's file with its folders made absolute; the .pc names PREFIX, not DESTDIR.
sed -e "s|^includedir=.*|includedir=$prefix/include/meshport|" \
    -e '/^# From a checkout/,/^# Version is/{/^# Version is/!d}' \
    "$abi/meshport-driver.pc" > "$root/lib/pkgconfig/meshport-driver.pc"
chmod 644 "$root/lib/pkgconfig/meshport-driver.pc"
echo "installed the driver SDK under $root (pkg-config: PKG_CONFIG_PATH=$prefix/lib/pkgconfig if that is not searched already)"
