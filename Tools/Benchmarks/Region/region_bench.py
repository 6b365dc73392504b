#!/usr/bin/env python3
"""The region benchmark: `meshport ingest` (release build) with one and with two workers against a
naive Python peer (Tools/Benchmarks/peer/psycopg_region_peer.py: paho-mqtt + psycopg, one INSERT
per row), each into its own database of one PostgreSQL 15, through one Mosquitto, in the same
run; printed as one JSON object for report.py's `region` group.

The same community packet messages for every side: LOGICAL packets, each heard by three
observers on paths of 0 to 2 hops (one observation per message). Each side's MQTT session is
made first, then the messages are published while it is away (the broker queues them, as it
does for a worker that restarts), then the side is started again and timed from its start until
every observation is in its database: observations per second, and CPU seconds per observation
(the side's processes: utime + stime from /proc). The publisher never bounds the figure.

Usage: region_bench.py MESHPORT_BINARY
Environment: REGION_LOGICAL (default 20000 logical packets, three observations each),
REGION_PEER_OBSERVATIONS (default 6000: the peer drains the first ones only, at its steady rate;
all of them would take it many minutes).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Web"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Serve"))
from postgres import Postgres  # noqa: E402
from servers import Process, free_port  # noqa: E402
from serve_bench import cpu_seconds  # noqa: E402

import paho.mqtt.client as mqtt  # noqa: E402

LOGICAL = int(os.environ.get("REGION_LOGICAL", "20000"))
PEER_OBSERVATIONS = int(os.environ.get("REGION_PEER_OBSERVATIONS", "6000"))
OBSERVERS = [bytes([0xC0 + i]) * 32 for i in range(3)]
PEER = os.path.join(os.path.dirname(__file__), "..", "peer", "psycopg_region_peer.py")


def log(text):
    print(f"region bench: {text}", file=sys.stderr, flush=True)


def messages(seed=27):
    """(topic, payload) of every observation: a direct text message (payload type 2, flood route)
    with random ciphertext, heard by each observer on its own path."""
    rng = random.Random(seed)
    start = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
    out = []
    for n in range(LOGICAL):
        payload = bytes([rng.randrange(256) for _ in range(4 + 16 * rng.randrange(1, 4))])
        for index, observer in enumerate(OBSERVERS):
            path = bytes(rng.randrange(256) for _ in range(index))
            raw = bytes([0x09, len(path)]) + path + payload
            heard = start + timedelta(milliseconds=n * 10 + index)
            key = observer.hex().upper()
            body = {"origin": f"Bench {index}", "origin_id": key, "timestamp": heard.isoformat(), "type": "PACKET", "direction": "rx",
                    "len": str(len(raw)), "packet_type": "2", "route": "F", "payload_len": str(len(payload)), "raw": raw.hex().upper(),
                    "SNR": str(round(rng.uniform(-15, 10), 2)), "RSSI": str(rng.randrange(-120, -60))}
            out.append((f"meshcore/BEN/{key}/packets", json.dumps(body)))
    return out


def publish(port, items):
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-publisher")
    client.max_inflight_messages_set(1000)
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    infos = [client.publish(topic, payload, qos=1) for topic, payload in items]
    for info in infos:
        info.wait_for_publish(60)
    client.loop_stop()
    client.disconnect()


def broker(work):
    port = free_port()
    conf = os.path.join(work, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                "max_queued_messages 0\nmax_queued_bytes 0\nmax_inflight_messages 1000\n")
    proc = Process("mosquitto", ["mosquitto", "-c", conf], os.environ.copy(), work)
    time.sleep(0.5)
    return proc, port


def count(pg, database, table):
    result = pg.psql(database, f"SELECT count(*) FROM {table}", check=False)
    digits = "".join(ch for ch in result.stdout if ch.isdigit())
    return int(digits) if result.returncode == 0 and digits else 0


def wait_count(pg, database, table, total, timeout=600):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if count(pg, database, table) >= total:
            return time.monotonic()
        time.sleep(0.1)
    raise RuntimeError(f"{database}.{table}: {count(pg, database, table)} of {total} rows after {timeout} s")


def meshport_side(meshport, pg, port, work, items, workers):
    database = f"meshport{workers}"
    url = pg.create(database)
    env = dict(os.environ, HOME=work, XDG_STATE_HOME=f"{work}/state", XDG_CONFIG_HOME=f"{work}/config", XDG_DATA_HOME=f"{work}/data")

    def start(tag):
        procs = []
        for i in range(workers):
            argv = [meshport, "ingest", "--mqtt", f"mqtt://127.0.0.1:{port}", "--postgres", url, "--workers-group", f"bench{workers}",
                    "--state", f"{work}/w{workers}-{i}", "--client-id", f"bench{workers}-{i}"]
            procs.append(Process(f"ingest{workers}-{i}-{tag}", argv, env, work))
        for p in procs:
            p.wait_line(r"Working in group", 60)
        return procs

    # The sessions first, so the broker queues for them while they are away.
    for p in start("setup"):
        time.sleep(2)
        p.stop()
    publish(port, items)
    began = time.monotonic()
    procs = start("run")
    done = wait_count(pg, database, "observations", len(items))
    cpu = sum(cpu_seconds(p.proc.pid) for p in procs)
    for p in procs:
        p.stop()
    return {"observations_per_s": len(items) / (done - began), "cpu_us_per_observation": cpu / len(items) * 1e6, "seconds": done - began}


def peer_side(pg, port, work, items):
    url = pg.create("peer")
    setup = subprocess.run([sys.executable, PEER, "setup", str(port), url], capture_output=True, text=True, timeout=60)
    if setup.returncode != 0:
        raise RuntimeError(f"peer setup: {setup.stderr}")
    publish(port, items)
    run = subprocess.run([sys.executable, PEER, "run", str(port), url, str(len(items))], capture_output=True, text=True, timeout=1800)
    if run.returncode != 0:
        raise RuntimeError(f"peer: {run.stderr}")
    return json.loads(run.stdout)


def main():
    meshport = sys.argv[1]
    work = tempfile.mkdtemp(prefix="meshport-region-bench-")
    pg = Postgres().start()
    mosquitto, port = broker(work)
    try:
        items = messages()
        log(f"{len(items)} observations ({LOGICAL} logical packets, 3 observers each)")
        results = {"observations": len(items)}
        log("peer: paho-mqtt + psycopg, one INSERT per row...")
        results["peer"] = peer_side(pg, port, work, items[:PEER_OBSERVATIONS])
        results["peer_observations"] = min(len(items), PEER_OBSERVATIONS)
        for workers in (1, 2):
            log(f"meshport ingest, {workers} worker(s)...")
            results[f"meshport_{workers}"] = meshport_side(meshport, pg, port, work, items, workers)
        print(json.dumps(results))
    finally:
        mosquitto.stop()
        pg.stop()


if __name__ == "__main__":
    main()
