#!/usr/bin/env python3
"""Writes the function order the release `meshport` is linked with (Tools/Link/meshport.order).

`meshport serve` (the release build itself) runs on `meshport sim` with Tools/Link/pagetouch.so
preloaded, which records the functions entered from another page: first starting up on a seeded
store and idling, then answering the API and the web UI, then idling as a gateway (`--mqtt` to a
Mosquitto of its own). lld lays the functions out in that order
(start-up first), so the code a running server uses sits together instead of spread over the
whole executable (the kernel maps code in 64 KB blocks around each page run). A call within the
pages pagetouch leaves open is not seen; in the next layout caller and callee part, so
Tools/Link/make-order.sh profiles a few times, merging what each run finds.

Usage: order.py profile MESHPORT PAGETOUCH_SO OUT | merge ORDER FOUND OUT
"""
import bisect
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Web"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Benchmarks", "Serve"))
from pipeline import Mosquitto  # noqa: E402
from servers import Servers  # noqa: E402
from serve_bench import seed_store  # noqa: E402

GRANULE = 16  # pagetouch.c records where code is entered in 16-byte granules
REQUESTS = ["/api/radios", "/api/radios/0", "/api/radios/0/self", "/api/radios/0/contacts?limit=200",
            "/api/radios/0/conversations", "/api/radios/0/channels", "/api/radios/0/channels/0/messages?limit=50",
            "/api/radios/0/search?q=hello", "/api/radios/0/stats", "/api/radios/0/remote", "/api/radios/0/settings",
            "/healthz", "/metrics", "/", "/js/main.js", "/app.css"]


def log(text):
    print(f"order: {text}", file=sys.stderr, flush=True)


def profile(meshport, pagetouch, db, work, name, requests, extra=()):
    """Runs serve once (with `extra` options); returns the offsets where its code was entered."""
    granules = os.path.join(work, f"{name}.granules")
    servers = Servers(meshport, db=db, extra=extra)
    try:
        servers.start_sim()
        # The Swift runtime's crash handler would take the faults pagetouch relies on.
        servers.env.update(LD_PRELOAD=pagetouch, PAGETOUCH_OUT=granules, SWIFT_BACKTRACE="enable=no")
        servers.start_serve()
        servers.wait_ready()
        time.sleep(5)
        for path in requests:
            with urllib.request.urlopen(servers.url + path, timeout=10) as answer:
                answer.read()
    finally:
        servers.stop()  # SIGTERM: serve exits normally and writes its granules
    if not os.path.exists(granules):
        raise SystemExit(f"order: serve wrote no granules ({granules}); see its log above")
    return [int(line, 16) for line in open(granules) if line.strip()]


def functions(meshport, granules):
    """The functions holding the given granules, in the order given."""
    listing = subprocess.run(["nm", "-n", "-S", "--defined-only", meshport], check=True, capture_output=True, text=True).stdout
    starts, ends, names = [], [], []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            starts.append(int(parts[0], 16))
            ends.append(int(parts[0], 16) + int(parts[1], 16))
            names.append(parts[3])
    found = []
    for granule in granules:
        # Every function that overlaps [granule, granule + GRANULE).
        i = max(0, bisect.bisect_right(starts, granule) - 1)
        while i < len(starts) and starts[i] < granule + GRANULE:
            if ends[i] > granule:
                found.append(names[i])
            i += 1
    return found


def write(names, out):
    with open(out, "w") as f:
        f.write("\n".join(names) + "\n")


def read(path):
    return [line.strip() for line in open(path) if line.strip()]


def profile_command(meshport, pagetouch, out):
    with tempfile.TemporaryDirectory(prefix="meshport-order-") as work:
        db = os.path.join(work, "seeded.db")
        log("seeding the store the serve benchmark uses...")
        seed_store(meshport, db)
        log("start-up and idle...")
        startup = functions(meshport, profile(meshport, pagetouch, db, work, "startup", ["/api/radios"]))
        log("answering the API and the web UI...")
        serving = functions(meshport, profile(meshport, pagetouch, db, work, "serving", REQUESTS))
        log("a gateway: the uplink to a broker, idle...")
        broker = Mosquitto(work)
        try:
            gateway = functions(meshport, profile(meshport, pagetouch, db, work, "gateway", ["/api/radios"],
                                                  extra=["--mqtt", f"{broker.url}?region=ORD&qos=1"]))
        finally:
            broker.stop()
    order = list(dict.fromkeys(startup + serving + gateway))
    write(order, out)
    log(f"{len(set(startup))} functions ran at start-up, {len(order)} in all")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "profile":
        profile_command(*args)
    elif command == "merge":
        # The order so far, then what this profile found that it lacks.
        before = read(args[0])
        merged = list(dict.fromkeys(before + read(args[1])))
        write(merged, args[2])
        log(f"{len(merged) - len(before)} functions added, {len(merged)} in the order")
    else:
        raise SystemExit(f"order: unknown command {command!r}")


if __name__ == "__main__":
    main()
