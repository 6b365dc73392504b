"""A small region stored by the real pipeline, for the Region view's browser check: `meshport sim
--radios 3` -> one `meshport serve --mqtt` gateway (QoS 1) per radio -> a Mosquitto of its own ->
one `meshport ingest` -> the tests' PostgreSQL. The scenario's nodes advertise with positions and
send Public texts; each gateway, once all are up, shares its position and sends a flood advert
through its API, so the others hear it and the observers have a place on the map. `run()`
returns once the database holds every hearing the sim's heard log says was pushed
(Tests/MeshIngestTests/RegionRig.swift does the same in Swift, with more checks)."""
import json
import os
import shutil
import subprocess
import tempfile
import time

from servers import Process, api, free_port, terminate, wait_ready

REGION = "WEB"
# (id, kind, latitude, longitude) of the nodes; (sender, text, second) of the Public texts.
NODES = [("ann", "chat", 52.3751, 4.8952), ("bob", "chat", 52.3652, 4.8853),
         ("cyd", "chat", 52.3723, 4.8804), ("ridge", "repeater", 52.3684, 4.9005)]
TEXTS = [("ann", "morning all", 7), ("bob", "anyone on the ridge?", 8), ("cyd", "heard you both", 9)]
# The sim runs this long at least: every event above has been sent by then.
SECONDS = 11
# And this long after the gateways' adverts, so every gateway has heard them.
AFTER_ADVERTS = 3


def scenario():
    events = [{"at": 3 + i, "advert": node[0]} for i, node in enumerate(NODES)]
    events += [{"at": at, "channel": {"from": sender, "text": text, "index": 0}} for sender, text, at in TEXTS]
    return {"radio": {"latitude": 52.37, "longitude": 4.89},
            "nodes": [{"id": i, "type": kind, "latitude": lat, "longitude": lon} for i, kind, lat, lon in NODES],
            "events": events}


class Mosquitto:
    """Debian's mosquitto on a free loopback port, anonymous, keeping every QoS 1 message queued."""

    def __init__(self, work):
        self.port = free_port()
        self.log_path = os.path.join(work, "mosquitto.log")
        config = os.path.join(work, "mosquitto.conf")
        with open(config, "w") as f:
            f.write(f"per_listener_settings false\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n"
                    f"log_dest file {self.log_path}\nlog_type error\nlog_type warning\nlog_type notice\nlog_type subscribe\n"
                    f"listener {self.port} 127.0.0.1\n"
                    # As root, mosquitto would switch to its own user, which cannot write the log here.
                    + ("user root\n" if os.geteuid() == 0 else ""))
        self.proc = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def wait_subscription(self, client_id, topic, timeout=30):
        line = f"{client_id} 1 {topic}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(self.log_path) and line in open(self.log_path).read():
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited with {self.proc.returncode}")
            time.sleep(0.05)
        raise RuntimeError(f"mosquitto logged no subscription of {client_id} to {topic} within {timeout} s")

    def stop(self):
        terminate(self.proc)


class Pipeline:
    def __init__(self, meshport, postgres, database):
        self.meshport = meshport
        self.postgres = postgres
        self.database = database
        self.url = postgres.create(database)
        self.work = tempfile.mkdtemp(prefix="meshport-web-region-")
        self.env = dict(os.environ, XDG_CONFIG_HOME=f"{self.work}/config", XDG_DATA_HOME=f"{self.work}/data",
                        XDG_STATE_HOME=f"{self.work}/state", MESHPORT_RADIO="", MESHPORT_DB="")
        self.broker = None
        self.processes = []

    def start(self, name, argv):
        process = Process(name, [self.meshport, *argv], self.env, self.work)
        self.processes.append(process)
        return process

    def count(self, sql):
        answer = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.postgres.port), "-U", "meshport", "-d", self.database,
                                 "-At", "-c", sql], capture_output=True, text=True, check=True)
        return int(answer.stdout.strip())

    def said(self):
        return "\n".join(f"{p.name}: {p.tail()[-600:]}" for p in self.processes)

    def run(self, timeout=30):
        """Runs the sim to its end; returns the heard log's pushed lines once all are stored."""
        self.broker = Mosquitto(self.work)
        self.start("ingest", ["ingest", "--mqtt", self.broker.url, "--postgres", self.url, "--single-worker",
                              "--state", f"{self.work}/ingest", "--client-id", "web-ingest", "--batch-ms", "100"])
        for kind in ("packets", "status"):
            self.broker.wait_subscription("web-ingest", f"meshcore/+/+/{kind}")
        with open(f"{self.work}/scenario.json", "w") as f:
            json.dump(scenario(), f)
        heard_log = f"{self.work}/heard.jsonl"
        sim = self.start("region-sim", ["sim", "--radios", "3", "--seed", "27", "--listen", "tcp://127.0.0.1:0",
                                        "--scenario", f"{self.work}/scenario.json", "--heard-log", heard_log])
        started = time.monotonic()
        deadline = started + 30
        while len(addresses := self.addresses(sim)) < 3:
            if time.monotonic() > deadline or sim.proc.poll() is not None:
                raise RuntimeError(f"the sim did not announce its 3 radios: {sim.tail()}")
            time.sleep(0.05)
        gateways = [self.start(f"gateway-{index}", ["serve", "--radio", address, "--http", "127.0.0.1:0", "--db", f"{self.work}/gateway-{index}.db",
                                                    "--mqtt", f"{self.broker.url}?region={REGION}&qos=1&keepalive=5"])
                    for index, address in enumerate(addresses)]
        urls = [gateway.wait_line(r"listening on (http://\S+)", 30).group(1) for gateway in gateways]
        for url, gateway in zip(urls, gateways):
            wait_ready(url, 30, tail=lambda: f"; its log: {gateway.tail()}")
        for url in urls:
            api(url, "/api/radios/0/settings/advert_loc_policy", method="PUT", body={"value": "share"})
            api(url, "/api/radios/0/advert", method="POST", body={"flood": True})
        now = time.monotonic()
        time.sleep(max(0, started + SECONDS - now, AFTER_ADVERTS))
        # SIGTERM: the radios stop hearing first, so every pushed line reached its uplink.
        sim.stop()
        with open(heard_log) as f:
            pushed = [line for line in map(json.loads, f) if line["pushed"]]
        deadline = time.monotonic() + timeout
        while (stored := self.count("SELECT count(*) FROM observations")) < len(pushed):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{stored} of the {len(pushed)} hearings the sim pushed were stored within {timeout} s:\n{self.said()}")
            time.sleep(0.2)
        # A moment more, so a hearing stored twice would show.
        time.sleep(1)
        if (stored := self.count("SELECT count(*) FROM observations")) != len(pushed):
            raise RuntimeError(f"{stored} observations stored for the {len(pushed)} hearings the sim pushed")
        return pushed

    @staticmethod
    def addresses(sim):
        with open(sim.log_path) as f:
            return [word for line in f for word in line.split() if word.startswith("tcp://") and "listening on" in line]

    def stop(self):
        for process in reversed(self.processes):
            process.stop()
        if self.broker:
            self.broker.stop()
        shutil.rmtree(self.work, ignore_errors=True)
