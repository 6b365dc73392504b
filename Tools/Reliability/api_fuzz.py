#!/usr/bin/env python3
"""API fuzzing: schemathesis against Docs/openapi.json on a running `meshport serve`.

    .venv/bin/python Tools/Reliability/api_fuzz.py MESHPORT [--examples N] [--seed N]
        [--workers N] [--request-timeout S] [--time-limit S] [--results FILE]

Starts `meshport sim`, a PostgreSQL with a small region history and `meshport serve` on both
(own temporary config, data and token file, loopback ports; Tools/Web/servers.py and
Tools/Web/postgres.py), then runs every operation of the document with the bearer token through
schemathesis' phases (coverage, fuzzing, and stateful chains over the links it finds), checking
that no answer is a server error, that each status, content type and body is one the document
describes, that the token is needed where the document says so, that a method the document does
not list is 405, and that each request is answered within the time limit. Then it stops everything:
`meshport serve` must exit 0 on SIGTERM within 10 s.

Prints one PASS or FAIL line per operation, each failure with a curl that reproduces it, the line
"api-fuzz: N operations, M requests, E server errors, V schema violations, H hangs", and last
"N passed, M failed" (operations, and the run's own checks) for Tools/test-all.sh. With
--results, the figures are merged into that JSON file as {"api_fuzz.NAME": {"value", "unit",
"goal", "ok"}} (reliability-results.json of `make reliability`).
"""
import argparse
import base64
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tools", "Web"))
from postgres import Postgres, seed_region  # noqa: E402
from servers import Servers  # noqa: E402

DOCUMENT = os.path.join(ROOT, "Docs", "openapi.json")
# A 5xx answer; every other check is the answer against the document: its status, content type
# and body, a 401 wherever it asks for the token, 405 for a method it does not list.
SERVER_CHECK = "not_a_server_error"
DOCUMENT_CHECKS = ["status_code_conformance", "content_type_conformance", "response_schema_conformance", "ignored_auth",
                   "unsupported_method"]
# Network failures of one request, as schemathesis names them: no answer in time, or none at all.
HANG_ERRORS = ("ReadTimeout", "Timeout", "ConnectTimeout")


def arguments():
    parser = argparse.ArgumentParser(description="schemathesis against meshport serve on meshport sim")
    parser.add_argument("meshport", help="the meshport executable")
    parser.add_argument("--examples", type=int, default=10, help="hypothesis examples per operation and phase (10)")
    parser.add_argument("--seed", type=int, default=28, help="hypothesis seed, so a run can be repeated (28)")
    parser.add_argument("--workers", type=int, default=1, help="concurrent schemathesis workers (1)")
    # The longest wait the server means to make: a remote request sent flood, 5 s + 10 s for each
    # of 3 assumed hops (Modules/MeshServices/Remote/RemoteTimeouts.swift).
    parser.add_argument("--request-timeout", type=float, default=60.0,
                        help="seconds a request may take before it counts as a hang (60; a remote request may take 35)")
    parser.add_argument("--time-limit", type=float, default=0,
                        help="seconds the whole schemathesis run may take (default: 120 + 6 per example)")
    parser.add_argument("--results", help="a JSON file to merge the figures into (reliability-results.json)")
    return parser.parse_args()


def schemathesis_command():
    """The schemathesis of this Python's environment (the venv of Tools/requirements.txt)."""
    command = shutil.which("schemathesis", path=os.path.dirname(sys.executable))
    if command is None:
        raise RuntimeError(f"schemathesis is not installed beside {sys.executable}; `make venv` installs it (Tools/requirements.txt)")
    return command


class World:
    """meshport sim, a PostgreSQL with a region history and meshport serve with a token."""

    def __init__(self, meshport):
        self.postgres = Postgres()
        self.token_dir = tempfile.mkdtemp(prefix="meshport-api-fuzz-")
        self.token_file = os.path.join(self.token_dir, "token")
        self.servers = None
        self.meshport = meshport
        self.token = None

    def start(self):
        self.postgres.start()
        history = self.postgres.create("region")
        self.servers = Servers(self.meshport, extra=["--token-file", self.token_file, "--history", history]).start()
        # serve brings the region schema up to date at start; the rows go in after that.
        seed_region(self.postgres, "region")
        with open(self.token_file) as f:
            self.token = f.read().strip()
        self.servers.wait_ready(token=self.token)
        return self

    def serve_alive(self):
        """None while serve runs and answers /healthz, else why not."""
        serve = self.servers.serve.proc
        if serve.poll() is not None:
            return f"meshport serve exited with status {serve.returncode}"
        try:
            with urllib.request.urlopen(self.servers.url + "/healthz", timeout=10) as answer:
                return None if answer.status == 200 else f"/healthz answered {answer.status}"
        except OSError as error:
            return f"/healthz did not answer: {error}"

    def stop_serve(self):
        """Stops serve with SIGTERM; None when it exits 0 within 10 s, else what it did."""
        serve = self.servers.serve.proc
        if serve.poll() is not None:
            return f"meshport serve had already exited with status {serve.returncode}"
        serve.terminate()
        try:
            status = serve.wait(10)
        except subprocess.TimeoutExpired:
            return "meshport serve did not exit within 10 s of SIGTERM"
        return None if status == 0 else f"meshport serve exited with status {status} on SIGTERM"

    def serve_log(self, lines=40):
        with open(self.servers.serve.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def stop(self):
        if self.servers:
            self.servers.stop()
        self.postgres.stop()
        shutil.rmtree(self.token_dir, ignore_errors=True)


def run_schemathesis(world, args, report_dir):
    """Runs schemathesis to the end or the time limit; returns (exit status or None, output)."""
    argv = [schemathesis_command(), "run", DOCUMENT, "--url", world.servers.url,
            "--header", f"Authorization: Bearer {world.token}",
            "--checks", ",".join([SERVER_CHECK, *DOCUMENT_CHECKS]),
            "--phases", "coverage,fuzzing,stateful",
            "--max-examples", str(args.examples), "--seed", str(args.seed), "--workers", str(args.workers),
            "--request-timeout", str(args.request_timeout), "--request-retries", "0",
            "--continue-on-failure", "--output-sanitize", "false", "--no-color",
            "--report", "ndjson", "--report-dir", report_dir]
    limit = args.time_limit or 120 + 6 * args.examples
    # Its own session, so the time limit ends schemathesis and any worker it started.
    # In the report's folder, so what schemathesis keeps between runs (.schemathesis/) goes with it.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            cwd=report_dir, env=dict(os.environ, SCHEMATHESIS_HOOKS="", NO_COLOR="1"))
    try:
        output, _ = proc.communicate(timeout=limit)
        return proc.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        output, _ = proc.communicate()
        return None, output + f"\nschemathesis did not finish within {limit:.0f} s (--time-limit)"


def reproduce(request, world):
    """A curl for one request, with the server's address and token as shell variables."""
    uri = request["uri"]
    path = uri[len(world.servers.url):] if uri.startswith(world.servers.url) else uri
    parts = ["curl", "-sS", "-i", "-X", shlex.quote(request["method"]), '"$MESHPORT_URL"' + shlex.quote(path)]
    for name, values in (request.get("headers") or {}).items():
        for value in values:
            pieces = f"{name}: {value}".split(world.token)
            parts += ["-H", '"$MESHPORT_TOKEN"'.join(shlex.quote(piece) if piece else "" for piece in pieces)]
    body = request.get("body")
    prefix = ""
    if body is not None:
        data = base64.b64decode(body["$base64"]) if isinstance(body, dict) else str(body).encode()
        try:
            parts += ["--data-binary", shlex.quote(data.decode("utf-8"))]
        except UnicodeDecodeError:
            prefix = "printf '%b' " + shlex.quote("".join(f"\\x{b:02x}" for b in data)) + " | "
            parts += ["--data-binary", "@-"]
    return prefix + " ".join(parts)


def answer_text(response):
    if not response:
        return "no answer"
    content = response.get("content") or {}
    body = base64.b64decode(content["$base64"]) if "$base64" in content else (content.get("text") or "").encode()
    return f"{response['status_code']}: {body[:300].decode('utf-8', 'replace')}"


class Tally:
    """What the run's report says: operations, requests, and the failures by kind."""

    def __init__(self):
        self.operations = set()
        self.requests = 0
        self.server_errors = []
        self.violations = []
        self.hangs = []
        self.errors = []  # schemathesis could not test something: a failure too
        self.unanswered = []  # requests without an answer, until their network error names why

    def read(self, path, world):
        with open(path) as f:
            for line in f:
                event = json.loads(line)
                kind, value = next(iter(event.items()))
                if kind == "ScenarioFinished":
                    self.scenario(value, world)
                elif kind in ("NonFatalError", "FatalError"):
                    self.error(value)

    def scenario(self, value, world):
        recorder = value["recorder"]
        if value["status"] != "skip" and value["phase"] != "stateful":
            self.operations.add(recorder["label"])
        for case_id, interaction in (recorder.get("interactions") or {}).items():
            self.requests += 1
            request, response = interaction["request"], interaction.get("response")
            # The operation: the scenario's own, or in a stateful chain the step's.
            case = recorder["cases"].get(case_id, {}).get("value", {})
            label = recorder["label"] if value["phase"] != "stateful" else f"{case.get('method', '?').upper()} {case.get('path', '?')}"
            failed = [c for c in (recorder.get("checks") or {}).get(case_id, []) if c["status"] == "failure"]
            names = {c["name"] for c in failed}
            what = "; ".join(f"{c['failure_info']['failure']['title']}: {c['failure_info']['failure']['message']}"
                             for c in failed if c.get("failure_info"))
            finding = (label, f"{what or answer_text(response)}\nanswer {answer_text(response)}", reproduce(request, world))
            if response is None:
                # Told apart by the matching NonFatalError; both count the request once.
                self.unanswered.append(finding)
            elif SERVER_CHECK in names:
                self.server_errors.append(finding)
            elif names:
                self.violations.append(finding)

    def error(self, value):
        error = value.get("value") or value
        label = value.get("label") or "the run"
        if error.get("type") in HANG_ERRORS:
            self.hangs.append((label, error.get("message", ""), ""))
        else:
            self.errors.append((label, f"{error.get('type')}: {error.get('message', '')}", ""))

    def attach_requests(self):
        """Gives each hang or network error the curl of an unanswered request of its operation."""
        for findings in (self.hangs, self.errors):
            for n, (label, message, _) in enumerate(findings):
                match = next((f for f in self.unanswered if f[0] == label), None)
                if match:
                    self.unanswered.remove(match)
                    findings[n] = (label, message, match[2])
        for label, _, curl in self.unanswered:
            self.errors.append((label, "no answer to this request", curl))
        self.unanswered = []

    def failing(self):
        """Each operation (or "meshport serve", "the run") with at least one failure."""
        return {label for findings in (self.server_errors, self.violations, self.hangs, self.errors) for label, _, _ in findings}


def merge_results(path, figures):
    """Merges this run's figures into the JSON results file, keeping every other entry."""
    results = {}
    if os.path.exists(path):
        with open(path) as f:
            results = json.load(f)
    results.update(figures)
    temporary = path + ".tmp"
    with open(temporary, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(temporary, path)


def main():
    args = arguments()
    with open(DOCUMENT) as f:
        documented = {f"{method.upper()} {path}" for path, operations in json.load(f)["paths"].items()
                      for method in operations if method in ("get", "put", "post", "delete", "patch", "head", "options")}
    world = World(args.meshport)
    report_dir = tempfile.mkdtemp(prefix="meshport-api-fuzz-report-")
    tally = Tally()
    run_problems = []
    try:
        schemathesis_command()  # before anything starts: said at once when it is missing
        world.start()
        print(f"api-fuzz: meshport serve at {world.servers.url}; {len(documented)} documented operations, "
              f"{args.examples} examples each, seed {args.seed}", flush=True)
        status, output = run_schemathesis(world, args, report_dir)
        reports = glob.glob(os.path.join(report_dir, "*.ndjson"))
        if reports:
            tally.read(reports[0], world)
        tally.attach_requests()
        if status is None or not reports:
            run_problems.append("schemathesis did not finish: " + output[-3000:])
        elif status != 0 and not (tally.server_errors or tally.violations or tally.hangs or tally.errors):
            run_problems.append(f"schemathesis exited with status {status} and reported nothing: " + output[-3000:])
        untested = documented - tally.operations
        if untested:
            run_problems.append(f"operations schemathesis did not test: {', '.join(sorted(untested))}")
        alive = world.serve_alive()
        if alive:
            tally.server_errors.append(("meshport serve", alive, ""))
        log = world.serve_log()
        stopped = world.stop_serve()
        if stopped:
            run_problems.append(stopped)
    except Exception as error:  # a failure to start must still stop the servers and say why
        run_problems.append(str(error))
        log = ""
    finally:
        world.stop()
        shutil.rmtree(report_dir, ignore_errors=True)

    for kind, findings in (("server error", tally.server_errors), ("schema violation", tally.violations),
                           ("hang", tally.hangs), ("error", tally.errors)):
        # One report per operation and kind of failure, with how many more answers failed alike.
        shown = {}
        for label, message, curl in findings:
            first_line = message.split("\n", 1)[0]
            if (label, first_line) in shown:
                shown[(label, first_line)] += 1
                continue
            shown[(label, first_line)] = 0
            print(f"FAIL {label}: {kind}: " + "\n    ".join(line for line in message.splitlines() if line.strip()))
            if curl:
                print(f"    reproduce (meshport serve at $MESHPORT_URL, its token in $MESHPORT_TOKEN):\n    {curl}")
        for (label, first_line), more in shown.items():
            if more:
                print(f"    ({more} more answers of {label} failed as: {first_line})")
    failing = tally.failing()
    for operation in sorted(tally.operations - failing):
        print(f"PASS {operation}")
    for problem in run_problems:
        print(f"FAIL run: {problem}")
    if (tally.server_errors or tally.violations or tally.hangs or tally.errors) and log:
        print("--- the end of meshport serve's log ---\n" + log)

    print(f"api-fuzz: {len(tally.operations)} operations, {tally.requests} requests, {len(tally.server_errors)} server errors, "
          f"{len(tally.violations)} schema violations, {len(tally.hangs)} hangs")
    if args.results:
        def figure(value, unit, goal):
            return {"value": value, "unit": unit, "goal": goal, "ok": value == goal}
        merge_results(args.results, {
            "api_fuzz.server_errors": figure(len(tally.server_errors), "answers", 0),
            "api_fuzz.schema_violations": figure(len(tally.violations), "answers", 0),
            "api_fuzz.hangs": figure(len(tally.hangs), "requests", 0),
            "api_fuzz.untested_operations": figure(len(documented - tally.operations), "operations", 0),
        })
    # Each operation is one check, and the run itself (serve up and stopping cleanly, every
    # operation tested) one more.
    run_failed = bool(run_problems or failing - tally.operations)
    failed = len(failing & tally.operations) + (1 if run_failed else 0)
    passed = len(tally.operations - failing) + (0 if run_failed else 1)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
