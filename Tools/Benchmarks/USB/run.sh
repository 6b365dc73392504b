#!/usr/bin/env bash
# USB benchmark: frame round trips and throughput through the usb:// driver against the same
# data through the kernel's tty driver (Meshport's serial:// driver on its ttyUSB or ttyACM), in
# one QEMU guest with two identical devices: emulated FTDI FT232s, full-speed CDC-ACM radios modelled
# on the host (Tools/USB/Radio, through QEMU's usb-redir) and CDC-ACM gadgets in the guest.
# Each device has its own `meshport sim`; round trips alternate between the paths in one
# process, and the devices swap roles every round. Writes one JSON object:
# Each path is measured on a guest with one CPU (the goal's setting: every instruction of
# either path is then on the round trip) and with two.
# {"ftdi": {"usb": [runs], "tty": [runs]}, "ftdi-2cpu": ...}; runs of the same index were
# measured together.
#   run.sh OUT.json [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out="$1"
rounds="${2:-4}"
work="$(mktemp -d)"
. Tools/USB/sim.sh
trap 'stop_sim; rm -rf "$work"' EXIT

Tools/release.sh --product meshport >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
sim="$(Tools/release.sh --show-bin-path)/meshport"
swift build -c release --scratch-path .build-usb --static-swift-stdlib --product MeshportGuest >"$work/guest.log" 2>&1 ||
    { tail -30 "$work/guest.log"; exit 1; }
guest=".build-usb/release/MeshportGuest"

# measure NAME CPUS VID:PID [run-in-vm options]
measure() {
    local name="$1" cpus="$2" vidpid="$3" ports=()
    shift 3
    for device in 1 2; do
        start_sim "$sim" "$work/sim-$name-$device.log" || { cat "$work/sim-$name-$device.log"; exit 1; }
        ports+=("$sim_port")
    done
    echo "usb: $name, $rounds rounds of the kernel tty and usb:// interleaved in one guest ($cpus CPU)..." >&2
    USBVM_CPUS=$cpus Tools/USB/run-in-vm.sh -t 600 -f "$guest" "$@" "${ports[0]},${ports[1]}" Tools/Benchmarks/USB/guest-bench.sh "$vidpid" "$rounds" >"$work/$name.jsonl" ||
        { echo "usb: the $name run failed" >&2; exit 1; }
    stop_sim
}
# USB_PATHS: a subset of these names (all by default).
all="ftdi cdc-acm-redir cdc-acm ftdi-2cpu cdc-acm-redir-2cpu cdc-acm-2cpu"
paths=" ${USB_PATHS:-$all} "
for name in $all; do
    [[ $paths == *" $name "* ]] || continue
    cpus=1; [[ $name == *-2cpu ]] && cpus=2
    case $name in
    ftdi*) measure "$name" $cpus 0403:6001 ;;
    cdc-acm-redir*) measure "$name" $cpus 303a:1001 -r cdc-acm ;;
    cdc-acm*) measure "$name" $cpus 303a:1001 -a -i 303a:1001 ;;
    esac
done

python3 - "$work" "$out" <<'PY'
import json, sys
work, out = sys.argv[1:3]
result = {}
for name in ("ftdi", "cdc-acm-redir", "cdc-acm", "ftdi-2cpu", "cdc-acm-redir-2cpu", "cdc-acm-2cpu"):
    try:
        runs = [json.loads(l) for l in open(f"{work}/{name}.jsonl") if l.startswith("{")]
    except FileNotFoundError:
        continue
    result[name] = {"usb": [r for r in runs if r["url"].startswith("usb://")],
                    "tty": [r for r in runs if r["url"].startswith("serial://")]}
json.dump(result, open(out, "w"), indent=1)
PY
