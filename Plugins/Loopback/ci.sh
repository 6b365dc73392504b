#!/bin/sh
# What a C driver's own CI runs (Docs/plugin-authoring.md, "Building a driver outside this
# repository"): build the driver against meshport-driver.pc, check that meshport loads it,
# and run the conformance suite on it. Here the driver is this folder's loopback.c, an echo
# device that is its own far side; a driver for a real link points URL at `meshport sim`
# (TCP, a pty, or `meshport sim --stdio` behind socat) instead.
# Needs: cc, pkg-config finding meshport-driver (PKG_CONFIG_PATH=<checkout>/Modules/MeshDriverABI
# or an installed SDK), meshport on the PATH. Tests/MeshTransportTests/OutOfTreeDriverTests.swift
# runs this script on a copy of loopback.c.
set -eu

SOURCE=${SOURCE:-loopback.c}
URL=${URL:-loopback://ci}
MISSING_URL=${MISSING_URL:-loopback://missing}
OUT=${OUT:-build/plugins}

# meshport refuses plugins in folders writable by group or others.
mkdir -p "$OUT"
chmod 755 "$OUT"
OUT=$(cd "$OUT" && pwd)
cc $(pkg-config --cflags meshport-driver) -std=c11 -D_GNU_SOURCE -Wall -Werror -shared -fPIC \
    -o "$OUT/libloopback.so" "$SOURCE" -lpthread

export MESHPORT_PLUGIN_PATH="$OUT"
meshport plugins
meshport conformance "$URL" --missing-url "$MISSING_URL"
