#!/usr/bin/env python3
"""The uplink benchmark: `meshport uplink` (release build) against meshcore_py + paho-mqtt
(Tools/Benchmarks/peer/meshcore_py_uplink_bench.py), in the same run, printed as one JSON object
for report.py's `uplink` group.

- Throughput and CPU per packet: one Mosquitto (loopback, anonymous, a temporary folder); for
  each side a fresh `meshport sim` whose air is busy (the scenario's `overheard`: PACKETS
  packets offered at RATE per second, Docs/meshsim-scenarios.md), the side's uplink connected
  to it and to the broker, and mosquitto_sub counting the packet messages. Heard packets per
  second: messages over the time from the first to the last arrival at the subscriber; CPU per
  packet: the uplink process's utime + stime (/proc/PID/stat) over the run, divided by the
  packets. The sim's and Mosquitto's CPU are read too, each as cores busy over the run, to say
  what bounded each side: the sim's offered rate, the sim itself (its one thread busy), the
  broker (its one thread busy), or the uplink (it fell behind).
- Idle RSS of `meshport serve --mqtt ...` after a warm-up (VmRSS), against the same server
  without the uplink (goal: under 45 MB).

Usage: uplink_bench.py MESHPORT_BINARY
Environment: UPLINK_PACKETS (default 40000), UPLINK_RATE (offered packets/s, default 60000),
UPLINK_QOS (0 or 1, default 0).

The default rate is more than either side can carry on two cores, so each is measured at its
own limit: a side that keeps up with a slower air wakes once for every packet and pays more
CPU per packet than one that is behind and takes several per wake-up (Meshport at 20,000/s:
35-44 us; the peer is always behind).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Web"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Serve"))
from servers import Process, Servers, free_port  # noqa: E402
from serve_bench import cpu_seconds, rss_kib  # noqa: E402

PACKETS = int(os.environ.get("UPLINK_PACKETS", "40000"))
RATE = int(os.environ.get("UPLINK_RATE", "60000"))
QOS = int(os.environ.get("UPLINK_QOS", "0"))
REGION = "AMS"
START_AT = 8          # seconds after the sim starts: both uplinks are connected well before
IDLE_SECONDS = 5
STALL_SECONDS = 10
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def log(text):
    print(f"uplink bench: {text}", file=sys.stderr, flush=True)


def scenario(path):
    """Two neighbouring repeaters and 30 companions up to two hops away talk on a channel the
    radio has not joined: every packet reaches the uplink as one LOG_RX_DATA push."""
    with open(path, "w") as f:
        json.dump({"seed": 26, "radio": {"name": "Bench gateway"},
                   "nodes": [{"id": "north", "type": "repeater"}, {"id": "south", "type": "repeater"}],
                   "generate": [{"count": 30, "type": "chat", "namePrefix": "Field", "maxHops": 2}],
                   "overheard": {"perSecond": RATE, "startAt": START_AT, "count": PACKETS}}, f)


class Broker:
    def __init__(self, work):
        self.port = free_port()
        folder = os.path.join(work, "mosquitto")
        os.makedirs(folder)
        config = os.path.join(folder, "mosquitto.conf")
        # Limits as numbers: 0 is not "unlimited" in every Mosquitto 2.0 release.
        with open(config, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                    "max_queued_messages 1000000\nmax_queued_bytes 0\nmax_inflight_messages 1000\n")
        self.process = Process("mosquitto", ["mosquitto", "-c", config], dict(os.environ), folder)
        self.process.wait_line(r"running", 10)


def subscriber(broker, work, name):
    """mosquitto_sub for the packet messages: one line per message, its arrival time first."""
    path = os.path.join(work, f"{name}-arrivals.txt")
    out = open(path, "w")
    proc = subprocess.Popen(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", str(QOS), "-C", str(PACKETS),
                             "-t", "meshcore/+/+/packets", "-F", "%U %p"], stdout=out, stderr=subprocess.STDOUT)
    return proc, out, path


def arrivals(path):
    times, sample = [], None
    with open(path) as f:
        for line in f:
            stamp, _, payload = line.partition(" ")
            try:
                times.append(float(stamp))
            except ValueError:
                raise RuntimeError(f"mosquitto_sub wrote {line.strip()!r}") from None
            sample = sample or payload
    return times, json.loads(sample) if sample else None


def one_side(name, argv, ready_pattern, meshport, broker, work, env):
    """One uplink on a fresh busy sim: heard packets/s, CPU per packet, what bounded it."""
    folder = os.path.join(work, name)
    os.makedirs(folder)
    scenario_path = os.path.join(folder, "scenario.json")
    scenario(scenario_path)
    sim_port = free_port()
    sim = Process("sim", [meshport, "sim", "--listen", f"tcp://127.0.0.1:{sim_port}", "--scenario", scenario_path], env, folder)
    client = None
    sub, out, path = None, None, None
    try:
        sim.wait_line(r"listening on tcp://", 30)
        sim_started = time.monotonic()
        sub, out, path = subscriber(broker, folder, name)
        client = Process(name, [a.replace("SIM_PORT", str(sim_port)) for a in argv], env, folder)
        client.wait_line(ready_pattern, START_AT)
        ready = time.monotonic() - sim_started
        if ready > START_AT - 1:
            raise RuntimeError(f"{name} took {ready:.1f} s to connect; the sim's air starts at {START_AT} s")
        cpu0, sim_cpu0, broker_cpu0 = cpu_seconds(client.proc.pid), cpu_seconds(sim.proc.pid), cpu_seconds(broker.process.proc.pid)
        # Until every message arrived, or none arrived for STALL_SECONDS after the air started
        # (the rest were lost: counted, not waited for).
        timed_out, size, moved = False, -1, time.monotonic()
        while sub.poll() is None:
            time.sleep(0.5)
            now_size = os.path.getsize(path)
            if now_size != size:
                size, moved = now_size, time.monotonic()
            elif time.monotonic() - max(moved, sim_started + START_AT) > STALL_SECONDS:
                timed_out = True
                sub.kill()
                sub.wait()
        cpu1, sim_cpu1, broker_cpu1 = cpu_seconds(client.proc.pid), cpu_seconds(sim.proc.pid), cpu_seconds(broker.process.proc.pid)
        out.close()
        times, sample = arrivals(path)
        if len(times) < 2:
            raise RuntimeError(f"{name}: {len(times)} packet messages arrived: {client.tail()}")
        span = times[-1] - times[0]
        rate = (len(times) - 1) / span
        sim_cores = (sim_cpu1 - sim_cpu0) / max(span, 1e-6)
        broker_cores = (broker_cpu1 - broker_cpu0) / max(span, 1e-6)
        own_cores = (cpu1 - cpu0) / max(span, 1e-6)
        if rate >= 0.95 * RATE:
            bound = f"the sim's offered rate ({RATE:,}/s)"
        elif sim_cores >= 0.9:
            bound = f"the sim (its thread busy: {sim_cores:.2f} cores)"
        elif broker_cores >= 0.9:
            bound = f"Mosquitto (its thread busy: {broker_cores:.2f} cores)"
        else:
            bound = f"the uplink itself ({own_cores:.2f} cores; the sim used {sim_cores:.2f}, Mosquitto {broker_cores:.2f})"
        if timed_out:
            bound += f"; {PACKETS - len(times):,} of {PACKETS:,} messages never arrived"
            # Meshport says at its stop how many its full backlog dropped (it holds 10,000).
            client.stop()
            with open(client.log_path) as f:
                said = re.findall(r"messages dropped from the full backlog.*?\((\d+) in all\)", f.read())
            if said:
                bound += f" ({int(said[-1]):,} dropped by the uplink's full backlog: the radio heard faster than it could send)"
        log(f"{name}: {len(times):,} of {PACKETS:,} messages, {rate:,.0f}/s, {(cpu1 - cpu0) / len(times) * 1e6:,.1f} us CPU per packet; "
            f"CPU share while it ran: uplink {own_cores:.2f}, sim {sim_cores:.2f}, Mosquitto {broker_cores:.2f} cores "
            f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); bounded by {bound}")
        return {"received": len(times), "timed_out": timed_out, "packets_per_s": rate, "span_s": span,
                "cpu_s": cpu1 - cpu0, "cpu_us_per_packet": (cpu1 - cpu0) / len(times) * 1e6, "cpu_cores": own_cores,
                "sim_cpu_cores": sim_cores, "broker_cpu_cores": broker_cores, "bounded_by": bound, "ready_s": ready, "sample": sample}
    finally:
        if sub and sub.poll() is None:
            sub.kill()
            sub.wait()
        if out and not out.closed:
            out.close()
        for p in (client, sim):
            if p:
                p.stop()


def idle_rss(meshport, broker, mqtt):
    servers = Servers(meshport, extra=["--mqtt", mqtt] if mqtt else []).start()
    try:
        servers.wait_ready()
        time.sleep(IDLE_SECONDS)
        return rss_kib(servers.serve.proc.pid)
    finally:
        servers.stop()


def main():
    meshport = sys.argv[1]
    work = tempfile.mkdtemp(prefix="meshport-uplink-bench-")
    env = dict(os.environ, XDG_CONFIG_HOME=f"{work}/config", XDG_DATA_HOME=f"{work}/data", MESHPORT_RADIO="", MESHPORT_DB="")
    started = time.monotonic()
    broker = Broker(work)
    try:
        mqtt = f"mqtt://127.0.0.1:{broker.port}?region={REGION}&qos={QOS}"
        log(f"{PACKETS:,} heard packets offered at {RATE:,}/s, QoS {QOS}: meshport uplink...")
        ours = one_side("meshport", [meshport, "uplink", "--radio", "tcp://127.0.0.1:SIM_PORT", "--db", f"{work}/uplink.db", "--mqtt", mqtt],
                        r"uplink to .*: connected", meshport, broker, work, env)
        log("the same with meshcore_py + paho-mqtt...")
        peer_script = os.path.join(ROOT, "Tools", "Benchmarks", "peer", "meshcore_py_uplink_bench.py")
        peer = one_side("peer", [sys.executable, peer_script, "127.0.0.1:SIM_PORT", f"127.0.0.1:{broker.port}", "--region", REGION, "--qos", str(QOS)],
                        r"ready", meshport, broker, work, env)
        missing = sorted(set(peer["sample"] or {}) ^ set(ours["sample"] or {}))
        if missing:
            raise RuntimeError(f"the two sides' packet messages differ in fields: {missing}")
        log(f"idle RSS of meshport serve with the uplink on, then without ({IDLE_SECONDS} s idle each)...")
        rss_on = idle_rss(meshport, broker, mqtt)
        rss_off = idle_rss(meshport, broker, None)
        log(f"Meshport against the peer: {ours['packets_per_s'] / peer['packets_per_s']:.2f}x the throughput (goal >= 10x), "
            f"{peer['cpu_us_per_packet'] / ours['cpu_us_per_packet']:.2f}x less CPU per packet (goal >= 5x)")
    finally:
        broker.process.stop()
        shutil.rmtree(work, ignore_errors=True)
    from importlib import metadata
    print(json.dumps({"meshport": ours, "peer": peer, "serve_rss": rss_on, "serve_rss_without_uplink": rss_off,
                      "packets": PACKETS, "offered_per_s": RATE, "qos": QOS, "load_average": os.getloadavg()[0],
                      "meshcore_version": metadata.version("meshcore"), "paho_version": metadata.version("paho-mqtt"),
                      "bench_seconds": round(time.monotonic() - started, 1)}, indent=1))


if __name__ == "__main__":
    main()
