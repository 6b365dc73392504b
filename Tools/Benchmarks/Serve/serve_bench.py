#!/usr/bin/env python3
"""Benchmarks of `meshport serve` (release build) on `meshport sim`, printed as one JSON object
for report.py's `serve` group. Each figure has a peer measured in the same run:

- idle RSS with 5,000 nodes in the store (seeded by `meshport db seed`), against the same server
  on an empty store (goal under 40 MB);
- cold start: exec to /healthz answering and to the radio ready, medians of 5, against exec to
  exit of `meshport --help` (the process start floor) (goal: ready under 300 ms);
- WebSocket fan-out: 1,000 events/s for 10 s to 50 clients: delivered, in order, latency from
  each event's due time; and the ceiling of server and clients together: events published
  unpaced, until clients fall a buffer behind and are closed (synthetic events: the server as
  MeshportTestServe, Tests/Tools/TestServe, from the same folder as MESHPORT_BINARY);
- a timeline page (50 messages of a channel of 900 and more) under load from 8 keep-alive
  connections in a closed loop for 8 s: p50/p99, against /healthz under the same load.

Usage: serve_bench.py MESHPORT_BINARY
"""
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Web"))
from servers import Servers, free_port  # noqa: E402
from loopback import EventClient, HTTPConnection, post_json  # noqa: E402

CLIENTS = 50
RATE = 1000
SECONDS = 10
LOAD_CONNECTIONS = 8
LOAD_SECONDS = 8


def log(text):
    print(f"serve bench: {text}", file=sys.stderr, flush=True)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def rss_kib(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    kib = lambda key: int(fields[key].split()[0])  # noqa: E731
    return {"rss_kib": kib("VmRSS"), "hwm_kib": kib("VmHWM"), "anon_kib": kib("RssAnon"), "file_kib": kib("RssFile")}


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def port_of(servers):
    return int(servers.url.rsplit(":", 1)[1])


# --- idle RSS ---

def idle_rss(meshport, db):
    servers = Servers(meshport, db=db).start()
    try:
        servers.wait_ready()
        time.sleep(5)
        return rss_kib(servers.serve.proc.pid)
    finally:
        servers.stop()


def seed_store(meshport, db):
    """The store the idle-RSS figure is measured on (Tools/Link/order.py profiles on it too)."""
    subprocess.run([meshport, "db", "seed", "--db", db, "--nodes", "5000", "--telemetry", "3", "--positions", "3",
                    "--stats", "3", "--messages", "10000"], check=True, capture_output=True, timeout=300)


def memory(meshport, work):
    seeded = os.path.join(work, "seeded.db")
    log("seeding 5,000 nodes (3 telemetry, 3 positions, 3 stats each) and 10,000 messages...")
    seed_store(meshport, seeded)
    log("idle RSS with the seeded store, then with an empty one (5 s idle each)...")
    seeded_rss = idle_rss(meshport, seeded)
    empty = idle_rss(meshport, os.path.join(work, "empty.db"))
    return dict(seeded_rss, **{f"empty_{k}": v for k, v in empty.items()}), seeded


# --- cold start ---

def wait_until(check, limit=10):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():
            return time.monotonic()
        time.sleep(0.002)
    raise RuntimeError("not within the time limit")


def http_get(port, path):
    async def once():
        connection = await HTTPConnection(port).open()
        try:
            return await connection.get(path)
        finally:
            connection.close()
    try:
        return asyncio.run(once())
    except OSError:
        return None, None


def cold_start(meshport, db):
    servers = Servers(meshport, db=db)
    servers.start_sim()
    health, ready = [], []
    try:
        for _ in range(6):
            port = free_port()
            argv = servers.serve_argv()
            argv[argv.index("127.0.0.1:0")] = f"127.0.0.1:{port}"
            start = time.monotonic()
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=servers.env)
            try:
                answered = wait_until(lambda: http_get(port, "/healthz")[0] == 200)
                up = wait_until(lambda: b'"ready":true' in (http_get(port, "/api/radios")[1] or b""))
                health.append((answered - start) * 1000)
                ready.append((up - start) * 1000)
            finally:
                proc.terminate()
                proc.wait(10)
        floor = []
        for _ in range(6):
            start = time.monotonic()
            subprocess.run([meshport, "--help"], check=True, capture_output=True)
            floor.append((time.monotonic() - start) * 1000)
    finally:
        servers.stop()
    # The first of each is a warm-up (page cache).
    return {"healthz_ms": statistics.median(health[1:]), "ready_ms": statistics.median(ready[1:]),
            "floor_ms": statistics.median(floor[1:]), "ready_runs_ms": [round(x, 1) for x in ready[1:]]}


# --- WebSocket fan-out ---

async def fanout_round(port, pid, count, rate):
    clients = [await EventClient(port).open() for _ in range(CLIENTS)]
    readers = [asyncio.create_task(c.run()) for c in clients]
    await asyncio.sleep(0.5)
    cpu0 = cpu_seconds(pid)
    start = time.monotonic()
    body = {"count": count, "perSecond": rate} if rate else {"count": count}
    status = await post_json(port, "/api/test/events", json.dumps(body))
    published = time.monotonic()
    await asyncio.sleep(1.5)
    cpu = cpu_seconds(pid) - cpu0
    for c in clients:
        c.close()
    await asyncio.gather(*readers, return_exceptions=True)
    received = sum(len(c.arrivals) for c in clients)
    result = {"status": status, "expected": count * CLIENTS, "received": received,
              "in_order": all(c.order_ok for c in clients), "closed_by_server": sum(c.closed_by_server for c in clients),
              "server_cpu_s": round(cpu, 2), "publish_s": round(published - start, 2)}
    if rate:
        delays = [(t - (start + n / rate)) * 1000 for c in clients for n, t in c.arrivals.items()]
        result.update(latency_p50_ms=percentile(delays, 50), latency_p99_ms=percentile(delays, 99))
    else:
        first = min(min(c.arrivals.values()) for c in clients if c.arrivals)
        last = max(max(c.arrivals.values()) for c in clients if c.arrivals)
        result["per_client_events_per_s"] = received / CLIENTS / max(last - first, 1e-6)
    return result


def fanout(meshport):
    test_serve = os.path.join(os.path.dirname(meshport), "MeshportTestServe")
    servers = Servers(meshport, serve_binary=test_serve).start()
    try:
        servers.wait_ready()
        port, pid = port_of(servers), servers.serve.proc.pid
        log(f"WebSocket fan-out: {RATE} events/s for {SECONDS} s to {CLIENTS} clients...")
        paced = asyncio.run(fanout_round(port, pid, RATE * SECONDS, RATE))
        log("WebSocket fan-out ceiling: the same clients, 5,000 events published unpaced...")
        ceiling = asyncio.run(fanout_round(port, pid, 5000, None))
        return {"paced": paced, "ceiling": ceiling}
    finally:
        servers.stop()


# --- timeline under load ---

async def closed_loop(port, path, seconds):
    latencies = []
    deadline = time.monotonic() + seconds

    async def worker():
        connection = await HTTPConnection(port).open()
        try:
            while time.monotonic() < deadline:
                t = time.monotonic()
                status, _ = await connection.get(path)
                if status != 200:
                    raise RuntimeError(f"{path}: HTTP {status}")
                latencies.append((time.monotonic() - t) * 1000)
        finally:
            connection.close()

    await asyncio.gather(*(worker() for _ in range(LOAD_CONNECTIONS)))
    return {"p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99), "requests_per_s": len(latencies) / seconds}


def timeline(meshport, work):
    scenario = os.path.join(work, "timeline.json")
    with open(scenario, "w") as f:
        json.dump({"extendsDefault": True, "radio": {"offlineQueueSize": 1000},
                   "backlog": {"dms": 0, "channel": 900, "text": "backlog for the timeline benchmark"}}, f)
    servers = Servers(meshport, sim_extra=["--scenario", scenario]).start()
    try:
        servers.wait_ready()
        port = port_of(servers)
        deadline = time.monotonic() + 60
        while True:
            channels = json.loads(http_get(port, "/api/radios/0/channels")[1])
            stored = channels[0]["messages"]
            if stored >= 900:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {stored} of the 900 backlog messages were stored within 60 s")
            time.sleep(0.2)
        page = "/api/radios/0/channels/0/messages?limit=50"
        log(f"timeline page under load ({LOAD_CONNECTIONS} connections, {LOAD_SECONDS} s), then /healthz the same...")
        result = asyncio.run(closed_loop(port, page, LOAD_SECONDS))
        result["stored_messages"] = stored
        result["healthz"] = asyncio.run(closed_loop(port, "/healthz", LOAD_SECONDS))
        return result
    finally:
        servers.stop()


def main():
    meshport = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="meshport-serve-bench-") as work:
        started = time.monotonic()
        mem, seeded = memory(meshport, work)
        log("cold start, 5 runs after a warm-up, on the seeded store...")
        start = cold_start(meshport, seeded)
        fan = fanout(meshport)
        page = timeline(meshport, work)
        print(json.dumps({"memory": mem, "cold_start": start, "fanout": fan, "timeline": page,
                          "clients": CLIENTS, "rate": RATE, "seconds": SECONDS, "load_connections": LOAD_CONNECTIONS,
                          "bench_seconds": round(time.monotonic() - started, 1)}, indent=1))


if __name__ == "__main__":
    main()
