#!/usr/bin/env python3
"""meshcore_py + paho-mqtt peer for the uplink benchmark (Tools/Benchmarks/Uplink/uplink_bench.py).

Usage:
    .venv/bin/python Tools/Benchmarks/peer/meshcore_py_uplink_bench.py SIM_HOST:PORT BROKER_HOST:PORT
                     --region AMS [--qos 0]

What `meshport uplink` does, in Python, through the public APIs of the installed packages only
(nothing patched): meshcore_py connects to the radio over TCP (MeshCore.create_tcp), subscribes
to its RX_LOG_DATA event (the LOG_RX_DATA push, 0x88), and each heard packet becomes the
community packet message of Docs/gateway.md ("Packet message"; the field rules as
Tools/Interop/gateway_check.py checks them), published with paho-mqtt to
meshcore/{IATA}/{KEY}/packets at the given QoS, keys sorted as Meshport writes them.

Writes "ready" on stderr once connected to both, then runs until SIGTERM. The benchmark reads
this process's CPU time from /proc, as it does for `meshport uplink`.

One process setting, as in meshcore_py_session_bench.py: meshcore_py's TCP framer calls itself
once per further frame in a received chunk, and a busy air fills a chunk with frames, so the
recursion limit is raised.
"""
import argparse
import asyncio
import hashlib
import json
import signal
import sys
from datetime import datetime, timezone

import paho.mqtt.client as mqtt
from meshcore import EventType, MeshCore

RECURSION_LIMIT = 20_000
ROUTE_LETTERS = {0: "F", 1: "F", 2: "D", 3: "T"}  # by route type: transport-flood is F, transport-direct T


def packet_hash(raw: bytes, payload_type: int, route_type: int, payload: bytes) -> str:
    """The firmware's packet hash (Docs/gateway.md, "The packet hash")."""
    sha = hashlib.sha256(bytes([payload_type]))
    if payload_type == 9:
        sha.update(raw[5 if route_type in (0, 3) else 1].to_bytes(2, "little"))
    sha.update(payload)
    return sha.hexdigest()[:16].upper()


def packet_message(log: dict, origin: str, origin_id: str) -> str:
    raw = bytes.fromhex(log["payload"])
    when = datetime.now(timezone.utc)
    message = {
        "origin": origin, "origin_id": origin_id,
        "timestamp": when.isoformat(), "type": "PACKET", "direction": "rx",
        "time": when.strftime("%H:%M:%S"), "date": when.strftime("%d/%m/%Y"),
        "len": str(log["payload_length"]), "packet_type": str(log["payload_type"]),
        "route": ROUTE_LETTERS[log["route_type"]], "payload_len": str(len(log["pkt_payload"])),
        "raw": log["payload"].upper(), "SNR": str(log["snr"]), "RSSI": str(log["rssi"]),
        "hash": packet_hash(raw, log["payload_type"], log["route_type"], log["pkt_payload"]),
    }
    if message["route"] == "D":
        hop = log["path_hash_size"] * 2
        message["path"] = ",".join(log["path"][i:i + hop] for i in range(0, len(log["path"]), hop))
    return json.dumps(message, sort_keys=True, separators=(",", ":"))


async def run(ns) -> None:
    sim_host, sim_port = ns.radio.rsplit(":", 1)
    broker_host, broker_port = ns.broker.rsplit(":", 1)
    mc = await MeshCore.create_tcp(sim_host, int(sim_port), default_timeout=10)
    if mc is None:
        raise SystemExit(f"meshcore_py_uplink_bench: no SELF_INFO from {ns.radio}")
    origin, origin_id = mc.self_info["name"], mc.self_info["public_key"].upper()
    topic = f"meshcore/{ns.region.upper()}/{origin_id}/packets"

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"meshcore-py-{origin_id[:16]}")
    connected = asyncio.get_running_loop().create_future()
    loop = asyncio.get_running_loop()
    client.on_connect = lambda *_: loop.call_soon_threadsafe(lambda: connected.done() or connected.set_result(True))
    client.connect(broker_host, int(broker_port))
    client.loop_start()   # paho's network thread, as the community bridge runs it
    await asyncio.wait_for(connected, 10)

    async def forward(event):
        client.publish(topic, packet_message(event.payload, origin, origin_id), qos=ns.qos)

    mc.subscribe(EventType.RX_LOG_DATA, forward)
    print("ready", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    client.loop_stop()
    client.disconnect()
    await mc.disconnect()


def main() -> None:
    ap = argparse.ArgumentParser(description="meshcore_py + paho-mqtt uplink benchmark peer")
    ap.add_argument("radio", help="HOST:PORT of `meshport sim`")
    ap.add_argument("broker", help="HOST:PORT of an anonymous MQTT broker")
    ap.add_argument("--region", required=True)
    ap.add_argument("--qos", type=int, choices=(0, 1), default=0)
    ns = ap.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    asyncio.run(run(ns))


if __name__ == "__main__":
    main()
