"""The processes the browser tests run against: `meshport sim` on a fixed TCP port and
`meshport serve` on it, each with its own temporary config, data and database. Every wait has
a time limit; stop() ends them whatever state they are in."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    def __init__(self, name, argv, env, log_dir):
        self.name = name
        self.log_path = os.path.join(log_dir, f"{name}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def wait_line(self, pattern, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                match = re.search(pattern, f.read())
            if match:
                return match
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}: {self.tail()}")
            time.sleep(0.05)
        raise RuntimeError(f"{self.name}: no line matching {pattern!r} within {timeout} s: {self.tail()}")

    def tail(self):
        with open(self.log_path) as f:
            return f.read()[-1500:]

    def stop(self):
        terminate(self.proc)
        self.log.close()


def terminate(proc):
    """SIGTERM, and SIGKILL when it has not exited within 5 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def api(url, path, token=None, method="GET", body=None):
    """One call to the REST API of the serve at URL (http://HOST:PORT): its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def wait_ready(url, timeout=60, token=None, tail=lambda: ""):
    """Until every radio of the serve at URL is ready: their list. `tail` adds the serve's log to the failure."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            radios = api(url, "/api/radios", token)
            last = radios
            if radios and all(r["state"] == "ready" for r in radios):
                return radios
        except (urllib.error.URLError, OSError) as error:
            last = error
        time.sleep(0.2)
    raise RuntimeError(f"the radio was not ready within {timeout} s (last answer: {last}){tail()}")


class Servers:
    """meshport sim + meshport serve. `extra` adds serve options (e.g. --token-file), `sim_extra`
    sim options (e.g. --scenario); `db` is the history database (default: a fresh one);
    `serve_binary` runs instead of `meshport serve` (MeshportTestServe, Tests/Tools/TestServe)."""

    def __init__(self, meshport, extra=(), sim_extra=(), db=None, serve_binary=None):
        self.meshport = meshport
        self.serve_command = [serve_binary] if serve_binary else [meshport, "serve"]
        self.extra = list(extra)
        self.sim_extra = list(sim_extra)
        self.work = tempfile.mkdtemp(prefix="meshport-web-")
        self.db = db or f"{self.work}/meshport.db"
        self.env = dict(os.environ, XDG_CONFIG_HOME=f"{self.work}/config", XDG_DATA_HOME=f"{self.work}/data",
                        MESHPORT_RADIO="", MESHPORT_DB="")
        self.sim_port = free_port()
        self.sim = None
        self.serve = None
        self.url = None

    def start(self):
        self.start_sim()
        self.start_serve()
        return self

    def serve_argv(self):
        return [*self.serve_command, "--radio", f"tcp://127.0.0.1:{self.sim_port}", "--http", "127.0.0.1:0", "--db", self.db, *self.extra]

    def start_serve(self):
        self.serve = Process("serve", self.serve_argv(), self.env, self.work)
        self.url = self.serve.wait_line(r"listening on (http://\S+)", 30).group(1)

    def stop_serve(self):
        if self.serve:
            self.serve.stop()
            self.serve = None

    def start_sim(self):
        self.sim = Process("sim", [self.meshport, "sim", "--listen", f"tcp://127.0.0.1:{self.sim_port}", *self.sim_extra], self.env, self.work)
        self.sim.wait_line(r"listening on tcp://", 30)

    def stop_sim(self):
        if self.sim:
            self.sim.stop()
            self.sim = None

    def api(self, path, token=None, method="GET"):
        return api(self.url, path, token, method)

    def wait_ready(self, timeout=60, token=None):
        return wait_ready(self.url, timeout, token, lambda: f"; serve log: {self.serve.tail()}")

    def stop(self):
        for p in (self.serve, self.sim):
            if p:
                p.stop()
        shutil.rmtree(self.work, ignore_errors=True)
