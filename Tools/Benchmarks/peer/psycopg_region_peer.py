#!/usr/bin/env python3
"""The region benchmark's naive peer: what a community analyzer back end does first, one
paho-mqtt subscriber writing each packet message as it comes with psycopg, one INSERT per row
(packet and observation), autocommit. Its own tables, the same observations.

Usage: psycopg_region_peer.py setup PORT URL        (make the tables and the broker session)
       psycopg_region_peer.py run PORT URL TOTAL    (drain until TOTAL observations; prints JSON)
"""
import hashlib
import json
import resource
import sys
import threading
import time

import paho.mqtt.client as mqtt
import psycopg

SCHEMA = """
CREATE TABLE IF NOT EXISTS packets (hash bytea PRIMARY KEY, raw bytea NOT NULL, first_seen timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS observations (id bigserial PRIMARY KEY, observer text NOT NULL, packet bytea NOT NULL,
    heard_at timestamptz NOT NULL, snr real, rssi integer, UNIQUE (heard_at, observer, packet));
"""


def client(port, on_message=None):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="region-peer", clean_session=False)
    c.on_connect = lambda c, *_: c.subscribe("meshcore/+/+/packets", qos=1)
    if on_message:
        c.on_message = on_message
    c.connect("127.0.0.1", port)
    return c


def main():
    mode, port, url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    conn = psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True)
    if mode == "setup":
        conn.execute(SCHEMA)
        c = client(port)
        c.loop_start()
        time.sleep(1)
        c.loop_stop()
        c.disconnect()
        return
    total = int(sys.argv[4])
    written = 0
    done = threading.Event()

    def on_message(_c, _u, message):
        nonlocal written
        body = json.loads(message.payload)
        raw = bytes.fromhex(body["raw"])
        digest = hashlib.sha256(raw).digest()
        conn.execute("INSERT INTO packets (hash, raw, first_seen) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                     (digest, raw, body["timestamp"]))
        conn.execute("INSERT INTO observations (observer, packet, heard_at, snr, rssi) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                     (body["origin_id"], digest, body["timestamp"], float(body["SNR"]), int(body["RSSI"])))
        written += 1
        if written >= total:
            done.set()

    began = time.monotonic()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    c = client(port, on_message)
    c.loop_start()
    done.wait(1800)
    elapsed = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_SELF)
    c.loop_stop()
    c.disconnect()
    cpu = (after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime)
    print(json.dumps({"observations_per_s": written / elapsed, "cpu_us_per_observation": cpu / max(1, written) * 1e6, "seconds": elapsed,
                      "psycopg": psycopg.__version__}))


if __name__ == "__main__":
    main()
