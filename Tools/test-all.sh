#!/usr/bin/env bash
# Runs every Meshport test stage and ends with one line "N passed, M failed" that CI reads.
# Usage: Tools/test-all.sh [FUZZ_SECONDS]   (seconds for each fuzz target; default 10)
set -uo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds="${1:-10}"
passed=0
failed=0
log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT

failures=()
stage() { printf '\n=== %s ===\n' "$1"; }
count() { passed=$((passed + $1)); failed=$((failed + $2)); }
# Remembers what failed, for the recap above the last line (CI shows only the end of the log).
failure() { failures+=("$1"); }

# 1. Build with no warnings in the project's own code.
stage "build"
if swift build --build-tests >"$log_dir/build.log" 2>&1; then
    warnings=$(grep -E "^$(pwd)/(Modules|Plugins|Tools|Tests)/.*warning:" "$log_dir/build.log" | sort -u)
    if [ -n "$warnings" ]; then
        echo "$warnings"
        echo "build: FAILED (warnings in project code)"
        count 0 1
        failure "build: warnings in project code"
    else
        echo "build: ok"
        count 1 0
    fi
else
    tail -50 "$log_dir/build.log"
    echo "build: FAILED"
    count 0 1
    failure "build"
fi

# 2. Swift tests (Swift Testing runs them in parallel), through Tools/reap.py: servers a
# crashed test process leaves behind are stopped, not left to load the next run.
stage "swift test"
# At most 32 tests at once (the Makefile says why); a caller's own width is kept.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-32}"
python3 Tools/reap.py swift test 2>&1 | tee "$log_dir/swift-test.log" | grep -E '^(✘|􀢄)|Test run with|error:' || true
total=$(grep -Eo 'Test run with [0-9]+ tests?' "$log_dir/swift-test.log" | tail -1 | grep -Eo '[0-9]+')
# Swift 6.3's Foundation reads past a readdir record while Process.run() scans /proc/self/fd, and
# now and then the test process dies of it (the crashed thread is in Process.run(); Meshport itself
# does not use Foundation's Process). Only that crash gets another run (at most two), and it is said.
for attempt in 2 3; do
    [ -z "$total" ] && awk '/^Thread [0-9]+ .*crashed:/ { c = 1; n = 0; next }
                            c && n++ < 4 && /Process\.run\(\)|findMaximumOpenFromProcSelfFD/ { found = 1 }
                            END { exit !found }' "$log_dir/swift-test.log" || break
    echo "swift test: the test process crashed inside Foundation's Process.run() (a toolchain bug); run $attempt of the tests"
    grep -E '^✘ Test .* (failed|errored) after' "$log_dir/swift-test.log" | sed 's/^/  before the crash: /'
    mv "$log_dir/swift-test.log" "$log_dir/swift-test-crashed-$attempt.log"
    python3 Tools/reap.py swift test 2>&1 | tee "$log_dir/swift-test.log" | grep -E '^(✘|􀢄)|Test run with|error:' || true
    total=$(grep -Eo 'Test run with [0-9]+ tests?' "$log_dir/swift-test.log" | tail -1 | grep -Eo '[0-9]+')
done
# One line per failed test ("✘ Test NAME failed after"); not its issues, nor the run's summary.
failed_tests=$(grep -E '^✘ Test .* (failed|errored) after' "$log_dir/swift-test.log" | grep -v '^✘ Test run with')
bad=$(printf '%s' "$failed_tests" | grep -c .)
if [ -z "$total" ]; then
    echo "swift test: no summary line (crash or build failure)"
    tail -30 "$log_dir/swift-test.log"
    count 0 1
    failure "swift test: no summary line"
else
    count $((total - bad)) "$bad"
    [ "$bad" -eq 0 ] || while IFS= read -r line; do failure "swift test: ${line:0:200}"; done <<<"$failed_tests"
    if [ "$bad" -gt 0 ]; then
        # Each issue with what it recorded (a test's own diagnostics), up to the next test event:
        # the log is gone after this script, and a rare failure may not come back.
        echo "--- the failed tests' issues ---"
        awk '/^✘ Test .* recorded an issue/ { p = 1; n = 0; print; next }
             /^(✔|✘|◇|􀟈|􁁛|􀢄) / { p = 0 }
             p && n++ < 80 { print }' "$log_dir/swift-test.log"
    fi
fi

# Runs a script that ends with "N passed, M failed", shows all but its PASS lines and adds
# its summary to the totals (no summary line counts as one failure).
summed() {
    local name="$1" log="$log_dir/$2.log"
    shift 2
    "$@" 2>&1 | tee "$log" | grep -vE '^PASS' || true
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    if [ -n "$line" ]; then
        count "$(echo "$line" | awk '{print $1}')" "$(echo "$line" | awk '{print $3}')"
        [ "$(echo "$line" | awk '{print $3}')" -eq 0 ] || while IFS= read -r bad_line; do failure "$name: $bad_line"; done \
            < <(grep -E '^(FAIL|✘)|"result":"failed"' "$log" | cut -c1-200)
    else
        echo "$name: no summary line"
        count 0 1
        failure "$name: no summary line"
    fi
}

# 2b. The layer rules (Docs/architecture.md): what each shipped module may depend on and import.
stage "layer rules"
summed "layers" layers python3 Tools/Layers/check-layers.py

# 3. Cross-check with the reference Python client.
stage "interop: meshcore_py cross-check"
summed interop interop Tools/Interop/run-crosscheck.sh

# 4. The reference Python client against the simulator (meshport sim), over TCP and the pty.
stage "interop: meshcore_py against MeshSim"
summed "sim interop" sim-interop Tools/Interop/run-sim-interop.sh

# 4b. The emulated BLE world (peer of the BLE tests) bridged to meshport sim, checked with
# Bumble's own host: frames both ways, link loss, controls (Tools/BLE/README.md).
stage "BLE world self-check"
summed "BLE world" ble-world .venv/bin/python Tools/BLE/check_world.py "$(swift build --show-bin-path)/meshport"

# 4b'. The web UI of `meshport serve` in headless chromium, on MeshSim (Tools/Web/run.sh);
# screenshots of every check in artifacts/web.
stage "web UI in chromium"
summed "web UI" web Tools/Web/run.sh

# 4b''. schemathesis against `meshport serve` on MeshSim: every operation of Docs/openapi.json,
# a short run with a fixed seed (Tools/Reliability/api_fuzz.py; `make reliability` runs a long one).
stage "API fuzzing"
summed "API fuzzing" api-fuzz Tools/Reliability/api-fuzz.sh --examples 10 --seed 28

# 4c. The usb:// driver in a QEMU guest: conformance over an emulated FTDI FT232, CDC-ACM, CP2102
# and CH340 radios modelled on the host (usbredir), and a CDC-ACM gadget, each with an unplug
# (Tools/USB/test-usb.sh, Docs/usb.md); and ble:// on the guest kernel's hci0 through the HCI
# user channel, its controller the emulated BLE world (Docs/ble.md).
stage "USB and BLE in a QEMU guest"
summed "USB" usb Tools/USB/test-usb.sh

# 5. A short run of every fuzz target: each parser a peer controls (Tools/Fuzz/README.md).
stage "fuzz (${fuzz_seconds} s per target)"
summed "fuzz" fuzz Tools/Fuzz/run.sh "$fuzz_seconds"

if [ "${#failures[@]}" -gt 0 ]; then
    echo
    echo "=== what failed ==="
    printf '%s\n' "${failures[@]}"
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
