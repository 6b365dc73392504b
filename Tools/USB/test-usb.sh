#!/usr/bin/env bash
# The usb:// driver's conformance suite inside a QEMU guest (run-in-vm.sh), over the emulated
# FTDI FT232 (usb://0403:6001); radios modelled on the host and attached through usbredir
# (Radio/radio.py): a full-speed CDC-ACM board (usb://303a:1001, the ESP32-S3's ids), a CP2102
# (usb://10c4:ea60) and a CH340 (usb://1a86:7523); and a high-speed CDC-ACM gadget in the guest
# (usb://303a:1001). Then the ble:// driver on the guest kernel's own Bluetooth adapter, hci0
# through the HCI user channel (run-in-vm.sh -b: its controller and the radio are the emulated
# world, Tools/BLE/world.py, on the host; Docs/ble.md). Each run gets its own `meshport sim` on a
# free port (and world), stopped afterwards.
# Prints "N passed, M failed" over all checks (a run without a report counts as one failure),
# then ends with each path's report as one JSON line ({"driver": "usb", "url": ..., "passed": N, ...}).
# Usage: Tools/USB/test-usb.sh        MESHPORT=path: another meshport binary for the sim.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

bin="${MESHPORT:-.build/debug/meshport}"
scratch=.build-usb          # --static-swift-stdlib needs a build folder of its own
guest="$scratch/debug/MeshportGuest"
work="$(mktemp -d "${TMPDIR:-/tmp}/meshport-usb.XXXXXX")"
. Tools/USB/sim.sh
trap 'stop_sim; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

fail() { echo "test-usb: $*"; echo "0 passed, 1 failed"; exit 1; }
[ -x "$bin" ] || swift build --product meshport >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; fail "cannot build meshport"; }
# The guest program: the drivers and the suite linked in, the Swift runtime static.
swift build --scratch-path "$scratch" --static-swift-stdlib --product MeshportGuest >"$work/guest-build.log" 2>&1 ||
    { tail -30 "$work/guest-build.log"; fail "cannot build MeshportGuest"; }

passed=0
failed=0
reports=()
# run NAME URL [run-in-vm options...]   (-b: the guest's port is the world's controller)
run() {
    local name="$1" url="$2"
    shift 2
    if ! start_sim "$bin" "$work/sim-$name.log"; then
        echo "$name: meshport sim did not start"; cat "$work/sim-$name.log"
        failed=$((failed + 1)); stop_sim; return
    fi
    local port=$sim_port
    if [[ " $* " == *" -b "* ]]; then
        if [ ! -x .venv/bin/python ] || ! start_world "$work/world-$name.log"; then
            echo "$name: the BLE world did not start (make venv installs Bumble)"; tail -20 "$work/world-$name.log"
            failed=$((failed + 1)); stop_sim; return
        fi
        port=$world_port
    fi
    local t0=$SECONDS rc=0
    Tools/USB/run-in-vm.sh -t 300 "$@" "$port" "$guest" "$url" >"$work/$name.json" 2>"$work/$name.err" || rc=$?
    stop_sim
    local report
    report=$(grep -E '^\{"checks"' "$work/$name.json" | tail -1)
    if [ -z "$report" ]; then
        echo "$name ($url): no report (exit $rc) after $((SECONDS - t0)) s"
        tail -60 "$work/$name.err"
        failed=$((failed + 1))
        return
    fi
    # The table (stderr) shows what failed and why; for BLE also the bridge and the world.
    if [ $rc -ne 0 ]; then
        grep -E 'failed|vhci-bridge' "$work/$name.err"
        [ ! -e "$work/world-$name.log" ] || tail -20 "$work/world-$name.log"
    fi
    local p f
    p=$(echo "$report" | sed -n 's/.*"passed":\([0-9]*\).*/\1/p')
    f=$(echo "$report" | sed -n 's/.*"failed":\([0-9]*\).*/\1/p')
    passed=$((passed + p)); failed=$((failed + f))
    echo "$name: $p passed, $f failed in $((SECONDS - t0)) s"
    reports+=("$report")
}

# The radio models' usbredir side first, against a scripted QEMU (no guest).
models=$(python3 -m unittest discover -s Tools/USB/Radio -p 'test_*.py' 2>&1)
ran=$(echo "$models" | sed -n 's/^Ran \([0-9]*\) test.*/\1/p')
bad=$(echo "$models" | grep -cE '^(FAIL|ERROR):')
if [ -z "$ran" ] || { [ "$bad" -eq 0 ] && ! echo "$models" | grep -q '^OK'; }; then bad=1; fi
[ "$bad" -eq 0 ] || echo "$models"
ok=$((${ran:-0} - bad)); [ "$ok" -ge 0 ] || ok=0
passed=$((passed + ok)); failed=$((failed + bad))
echo "radio models: $ok passed, $bad failed"

run ftdi usb://0403:6001
run cdc-acm-redir usb://303a:1001 -r cdc-acm
run cp210x usb://10c4:ea60 -r cp210x
run ch340 usb://1a86:7523 -r ch341
run cdc-acm usb://303a:1001 -a -i 303a:1001
run ble-hci0 'ble://F0:00:00:00:00:01?pin=123456&hci=hci0' -b

echo "$passed passed, $failed failed"
for r in "${reports[@]}"; do echo "$r"; done
[ "$failed" -eq 0 ]
