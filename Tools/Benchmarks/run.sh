#!/usr/bin/env bash
# `make bench`: measures Meshport against its peers in the same run and writes
# bench-results.json ({"name": {"value", "unit", "peer", "ratio"}}), printing a table.
# Groups: codec (against meshcore_py), store (MeshStore against a naive SQLite baseline),
# transport (the driver plugin path against the same socket and pty used in-process),
# sim (frames/s a MeshSim radio serves to an in-process client against MeshCodec alone),
# session (RadioSession against meshcore_py on the same `meshport sim` over TCP; and contact sync on
# a 115,200 Bd serial line against its wire time), ble (the LE
# host against Bumble's), usb (usb:// against the kernel's tty driver in a QEMU guest),
# serve (meshport serve on meshport sim: idle RSS, cold start, WebSocket fan-out, a timeline page
# under load), uplink (meshport uplink against meshcore_py + paho-mqtt, each on a busy `meshport sim`
# through one Mosquitto: heard packets/s and CPU per packet; idle RSS of `serve --mqtt`), region
# (meshport ingest with 1 and 2 workers against paho-mqtt + psycopg into PostgreSQL: observations/s).
set -euo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

Tools/release.sh --product MeshportBench >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
bin="$(Tools/release.sh --show-bin-path)/MeshportBench"

echo "codec: Meshport (release build)..."
"$bin" "$work/corpus.txt" 2000 >"$work/meshport.json"
echo "codec: meshcore_py on the same corpus..."
.venv/bin/python Tools/Benchmarks/peer/meshcore_py_parse_bench.py "$work/corpus.txt" >"$work/peer.json"

.venv/bin/python Tools/Benchmarks/report.py codec "$work/meshport.json" "$work/peer.json" bench-results.json

# Storage: MeshStore and its naive baseline, measured in one run (one JSON object).
Tools/release.sh --product MeshportStoreBench >"$work/build-store.log" 2>&1 || { cat "$work/build-store.log"; exit 1; }
echo "store: MeshStore and a naive baseline (release build, about 1.5 minutes)..."
"$(Tools/release.sh --show-bin-path)/MeshportStoreBench" "$work/store" >"$work/store.json"
.venv/bin/python Tools/Benchmarks/report.py store "$work/store.json" "$work/store.json" bench-results.json

# Transport: the plugin boundary against the same socket/pty used in-process (one JSON object).
# The drivers are dynamic products: build them beside the benchmark so its loader finds them.
for product in MeshportDriverTCP MeshportDriverSerial MeshportTransportBench; do
    Tools/release.sh --product "$product" >"$work/build-transport.log" 2>&1 || { cat "$work/build-transport.log"; exit 1; }
done
echo "transport: plugin path vs direct socket and pty (release build, about 30 seconds)..."
"$(Tools/release.sh --show-bin-path)/MeshportTransportBench" >"$work/transport.json"
.venv/bin/python Tools/Benchmarks/report.py transport "$work/transport.json" "$work/transport.json" bench-results.json

# Simulation: frames/s MeshSim serves to an in-process client against MeshCodec alone on the
# same frames (one JSON object; the goal is printed on stderr and in the table).
Tools/release.sh --product MeshportSimBench >"$work/build-sim.log" 2>&1 || { cat "$work/build-sim.log"; exit 1; }
echo "sim: MeshSim served to an in-process client vs MeshCodec alone (release build, about 25 seconds)..."
"$(Tools/release.sh --show-bin-path)/MeshportSimBench" >"$work/sim.json"
.venv/bin/python Tools/Benchmarks/report.py sim "$work/sim.json" "$work/sim.json" bench-results.json

# Session: Meshport's RadioSession (over the TCP driver plugin) against meshcore_py, each on a
# fresh `meshport sim` (1,000 contacts, 1,000 queued messages) per round, with a bare-socket floor
# (see Tools/Benchmarks/SessionBench/README.md). SESSION_ROUNDS measured rounds after a warm-up.
for product in meshport MeshportDriverTCP MeshportSessionBench; do
    Tools/release.sh --product "$product" >"$work/build-session.log" 2>&1 || { cat "$work/build-session.log"; exit 1; }
done
bin_dir="$(Tools/release.sh --show-bin-path)"
echo "session: RadioSession vs meshcore_py on meshport sim over TCP (release build, about 20 seconds)..."
Tools/Benchmarks/SessionBench/rounds.sh "$bin_dir/meshport" "$bin_dir/MeshportSessionBench" "${SESSION_ROUNDS:-5}" "$work/session.json"
.venv/bin/python Tools/Benchmarks/report.py session "$work/session.json" "$work/session.json" bench-results.json

# Serial line: the same contact sync from a sim whose pty runs at 115,200 Bd, against the wire
# time of its bytes (Tools/Benchmarks/SessionBench/serial-sync.sh; needs the serial driver).
Tools/release.sh --product MeshportDriverSerial >"$work/build-serial.log" 2>&1 || { cat "$work/build-serial.log"; exit 1; }
echo "serial: contact sync of 1,000 on a 115,200 Bd line vs its wire time (release build, about a minute)..."
Tools/Benchmarks/SessionBench/serial-sync.sh "$bin_dir/meshport" "$bin_dir/MeshportSessionBench" 115200 "${SERIAL_SYNCS:-3}" "$work/serial.json"
.venv/bin/python Tools/Benchmarks/report.py serial_sync "$work/serial.json" "$work/serial.json" bench-results.json

# BLE: Meshport's LE host against Bumble's own host, each on a fresh emulated world bridged to
# `meshport sim` (Tools/Benchmarks/BLE/run.sh): connect + pair + first frame, and round trips.
for product in meshport MeshportBLEBench; do
    Tools/release.sh --product "$product" >"$work/build-ble.log" 2>&1 || { cat "$work/build-ble.log"; exit 1; }
done
echo "ble: Meshport's LE host vs Bumble's on the same emulated world (release build, about 10 seconds)..."
Tools/Benchmarks/BLE/run.sh "$work/ble.json" "$work/ble-peer.json" "${BLE_CONNECTS:-15}" "${BLE_ROUND_TRIPS:-300}"
.venv/bin/python Tools/Benchmarks/report.py ble "$work/ble.json" "$work/ble-peer.json" bench-results.json

# USB: the usb:// driver against the kernel's tty driver on an identical device, in one QEMU guest,
# interleaved, over emulated FTDI FT232s, CDC-ACM radios modelled on the host (usbredir) and CDC-ACM
# gadgets, with one and two guest CPUs (Tools/Benchmarks/USB/run.sh).
echo "usb: usb:// vs the kernel's tty in a QEMU guest (release build, about 6 minutes)..."
Tools/Benchmarks/USB/run.sh "$work/usb.json" "${USB_ROUNDS:-4}"
.venv/bin/python Tools/Benchmarks/report.py usb "$work/usb.json" "$work/usb.json" bench-results.json

# Server: `meshport serve` on `meshport sim` (Tools/Benchmarks/Serve/serve_bench.py): idle RSS with
# 5,000 nodes in the store, cold start to ready, WebSocket fan-out to 50 clients, a timeline page
# under load; each against a peer measured in the same run.
for product in meshport MeshportTestServe MeshportDriverTCP; do
    Tools/release.sh --product "$product" >"$work/build-serve.log" 2>&1 || { cat "$work/build-serve.log"; exit 1; }
done
echo "serve: meshport serve on meshport sim (release build, about 45 seconds)..."
.venv/bin/python Tools/Benchmarks/Serve/serve_bench.py "$(Tools/release.sh --show-bin-path)/meshport" >"$work/serve.json"
.venv/bin/python Tools/Benchmarks/report.py serve "$work/serve.json" "$work/serve.json" bench-results.json

# Uplink: `meshport uplink` against meshcore_py + paho-mqtt, each on its own `meshport sim` with a
# busy air, through one Mosquitto (Tools/Benchmarks/Uplink/uplink_bench.py): heard packets/s at a
# subscriber and CPU per packet, then idle RSS of `meshport serve --mqtt` against it without.
for product in meshport MeshportDriverTCP; do
    Tools/release.sh --product "$product" >"$work/build-uplink.log" 2>&1 || { cat "$work/build-uplink.log"; exit 1; }
done
echo "uplink: meshport uplink vs meshcore_py + paho-mqtt through Mosquitto (release build, about 1 minute)..."
.venv/bin/python Tools/Benchmarks/Uplink/uplink_bench.py "$(Tools/release.sh --show-bin-path)/meshport" >"$work/uplink.json"
.venv/bin/python Tools/Benchmarks/report.py uplink "$work/uplink.json" "$work/uplink.json" bench-results.json

# Region: `meshport ingest` with one and two workers against a naive psycopg peer, each draining the
# same queued community messages into its own database of one PostgreSQL (Tools/Benchmarks/Region).
Tools/release.sh --product meshport >"$work/build-region.log" 2>&1 || { cat "$work/build-region.log"; exit 1; }
echo "region: meshport ingest (1 and 2 workers) vs paho-mqtt + psycopg into PostgreSQL (release build, about 2 minutes)..."
.venv/bin/python Tools/Benchmarks/Region/region_bench.py "$(Tools/release.sh --show-bin-path)/meshport" >"$work/region.json"
.venv/bin/python Tools/Benchmarks/report.py region "$work/region.json" "$work/region.json" bench-results.json

# Region query: GET /api/region/nodes of `meshport serve --history` on a seeded region (100,000 nodes,
# 10,000,000 observations; REGION_QUERY_NODES and REGION_QUERY_OBSERVATIONS make it smaller) against the
# same SQL bare on psycopg (Tools/Benchmarks/Region/query_bench.py; goal p99 < 50 ms).
echo "region: the nodes query of serve --history on a seeded region (release build, about 7 minutes at full size)..."
.venv/bin/python Tools/Benchmarks/Region/query_bench.py "$(Tools/release.sh --show-bin-path)/meshport" >"$work/region-query.json"
.venv/bin/python Tools/Benchmarks/report.py region_query "$work/region-query.json" "$work/region-query.json" bench-results.json
