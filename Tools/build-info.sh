#!/bin/sh
# Writes MeshportBuild.swift for the build (Tools/BuildInfo): the version from the package's
# VERSION file and the short git commit of the sources, or none when they are not a git
# checkout (a source tarball). The file is replaced only when its text changes, so SwiftPM
# recompiles nothing when the commit stays the same.
# Usage: Tools/build-info.sh PACKAGE_ROOT OUTPUT_FILE
set -eu
root="$1"
output="$2"
version=$(tr -d ' \n' < "$root/VERSION")
case "$version" in
    ''|*[!0-9A-Za-z.+~-]*) echo "$root/VERSION: \"$version\" is not a version number" >&2; exit 1 ;;
esac
if commit=$(git -C "$root" rev-parse --short=7 HEAD 2>/dev/null); then
    commit="\"$commit\""
else
    commit=nil
fi
mkdir -p "$(dirname "$output")"
next="$output.next"
cat > "$next" <<SWIFT
// Written by Tools/build-info.sh for each build; not in the repository.
enum MeshportBuild {
    static let version = "$version"
    static let commit: String? = $commit
}
SWIFT
if cmp -s "$next" "$output"; then rm "$next"; else mv "$next" "$output"; fi
