#!/usr/bin/env bash
# `swift build -c release` with the flags Meshport's release binaries are built with: every
# function in its own section (Swift and C), so lld can lay the executable out in the order
# Tools/Link/meshport.order gives (Docs/server.md, "Memory"). Its own scratch folder: SwiftPM
# does not recompile Swift objects when only these flags change, so a release build made
# without them must not be reused. Every release build of the project goes through here.
# Run from the package root:
#   Tools/release.sh [swift build options]     e.g. --product meshport, --show-bin-path
exec swift build -c release --scratch-path .build-release \
    -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections "$@"
