#!/usr/bin/env bash
# USB benchmark: frame round trips and throughput through the usb:// driver against the same
# data through the kernel's tty driver (Meshport's serial:// driver on /dev/ttyUSB0 or
# /dev/ttyACM0), in the same QEMU guest and the same boot, over the emulated FTDI FT232 and
# over a CDC-ACM gadget. Writes one JSON object: {"ftdi": {"usb": [runs], "tty": [runs]}, ...}.
#   run.sh OUT.json [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out="$1"
rounds="${2:-3}"
work="$(mktemp -d)"
. Tools/USB/sim.sh
trap 'stop_sim; rm -rf "$work"' EXIT

Tools/release.sh --product meshport >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
sim="$(Tools/release.sh --show-bin-path)/meshport"
swift build -c release --scratch-path .build-usb --static-swift-stdlib --product MeshportUSBGuest >"$work/guest.log" 2>&1 ||
    { tail -30 "$work/guest.log"; exit 1; }
guest=".build-usb/release/MeshportUSBGuest"

# measure NAME TTY USB-URL [run-in-vm options]
measure() {
    local name="$1" tty="$2" url="$3"
    shift 3
    start_sim "$sim" "$work/sim-$name.log" || { cat "$work/sim-$name.log"; exit 1; }
    echo "usb: $name, $rounds rounds of kernel tty and usb:// in one guest..." >&2
    Tools/USB/run-in-vm.sh -t 600 -f "$guest" "$@" "$sim_port" Tools/Benchmarks/USB/guest-bench.sh "$tty" "$url" "$rounds" >"$work/$name.jsonl" ||
        { echo "usb: the $name run failed" >&2; exit 1; }
    stop_sim
}
measure ftdi /dev/ttyUSB0 usb://0403:6001
measure cdc-acm /dev/ttyACM0 usb://303a:1001 -a -i 303a:1001

python3 - "$work" "$out" <<'PY'
import json, sys
work, out = sys.argv[1:3]
result = {}
for name in ("ftdi", "cdc-acm"):
    runs = [json.loads(l) for l in open(f"{work}/{name}.jsonl") if l.startswith("{")]
    result[name] = {"usb": [r for r in runs if r["url"].startswith("usb://")],
                    "tty": [r for r in runs if r["url"].startswith("serial://")]}
json.dump(result, open(out, "w"), indent=1)
PY
