#!/usr/bin/env python3
"""meshcore_py peer for the Meshport session benchmark (Tools/Benchmarks/SessionBench).

Usage:
    .venv/bin/python Tools/Benchmarks/peer/meshcore_py_session_bench.py HOST:PORT
                     [--round-trips 500] [--contact-syncs 5] [--contacts 1000] [--messages 1000]

Against one fresh `meshport sim` over TCP, through meshcore_py's public API only (the
installed `meshcore` package, imported, nothing patched), the same workload as
MeshportSessionBench (SessionBench/Workload.swift), in the same order:

  MeshCore.create_tcp (APP_START; not timed), 50 commands.send_device_query() (warm-up, not
  timed), --round-trips send_device_query() timed one by one, one untimed and
  --contact-syncs timed commands.get_contacts() (the full GET_CONTACTS stream, until the
  CONTACTS event), then one timed drain: commands.get_msg() until NO_MORE_MSGS.

One process setting, nothing in meshcore_py changed: its TCP framer (TCPConnection.handle_rx)
calls itself once per further frame in a received chunk, and the simulator writes the whole
contact stream at once, so one read can hold more than a thousand frames, past Python's default
recursion limit of 1000 (RecursionError, the stream lost). The limit is raised to 20,000 here
(a 256 KiB asyncio read holds at most about 1,750 CONTACT frames).

Prints one JSON object: {"client": "meshcore_py", "round_trip_us": [...], "contact_sync_ms":
[...], "drain_ms": x, "contacts": n, "messages": n, "meshcore_version": "..."}. Exit status 1
when an answer is wrong (an ERROR event, fewer contacts or messages than expected).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import time
from importlib import metadata

from meshcore import EventType, MeshCore

WARM_UP = 50
RECURSION_LIMIT = 20_000  # see the docstring: one level per frame of a received chunk
TIMEOUT = 10.0            # per command; a contact stream waits this long per event at most


class Wrong(Exception):
    pass


async def round_trip(mc: MeshCore) -> None:
    ev = await mc.commands.send_device_query()
    if ev.type != EventType.DEVICE_INFO:
        raise Wrong(f"DEVICE_QUERY answered {ev.type}: {ev.payload}")


async def sync_contacts(mc: MeshCore) -> int:
    ev = await mc.commands.get_contacts(timeout=TIMEOUT)
    if ev.type != EventType.CONTACTS:
        raise Wrong(f"GET_CONTACTS answered {ev.type}: {ev.payload}")
    return len(ev.payload)


async def drain(mc: MeshCore) -> int:
    count = 0
    while True:
        ev = await mc.commands.get_msg(timeout=TIMEOUT)
        if ev.type == EventType.NO_MORE_MSGS:
            return count
        if ev.type not in (EventType.CONTACT_MSG_RECV, EventType.CHANNEL_MSG_RECV, EventType.CHANNEL_DATA_RECV):
            raise Wrong(f"SYNC_NEXT_MESSAGE #{count + 1} answered {ev.type}: {ev.payload}")
        count += 1


async def run(ns) -> dict:
    host, port = ns.address.rsplit(":", 1)
    mc = await MeshCore.create_tcp(host, int(port), default_timeout=TIMEOUT)
    if mc is None:
        raise Wrong(f"no SELF_INFO from {ns.address}")
    try:
        for _ in range(WARM_UP):
            await round_trip(mc)
        trips = []
        trips_cpu = time.process_time()
        for _ in range(ns.round_trips):
            t0 = time.perf_counter()
            await round_trip(mc)
            trips.append((time.perf_counter() - t0) * 1e6)
        trip_cpu_us = (time.process_time() - trips_cpu) * 1e6 / ns.round_trips
        syncs = []
        syncs_cpu = 0.0
        for i in range(ns.contact_syncs + 1):
            cpu = time.process_time()
            t0 = time.perf_counter()
            n = await sync_contacts(mc)
            ms = (time.perf_counter() - t0) * 1e3
            if n != ns.contacts:
                raise Wrong(f"GET_CONTACTS carried {n} contacts, the scenario has {ns.contacts}")
            if i > 0:                        # the first is the warm-up
                syncs.append(ms)
                syncs_cpu += time.process_time() - cpu
        drain_cpu = time.process_time()
        t0 = time.perf_counter()
        drained = await drain(mc)
        drain_ms = (time.perf_counter() - t0) * 1e3
        drain_cpu_ms = (time.process_time() - drain_cpu) * 1e3
        if drained != ns.messages:
            raise Wrong(f"drained {drained} messages, the scenario queues {ns.messages}")
    finally:
        await mc.disconnect()
    # process_time: this process's CPU (user + system, all threads), as the Swift client reports it.
    return {"client": "meshcore_py", "round_trip_us": trips, "contact_sync_ms": syncs, "drain_ms": drain_ms,
            "round_trip_cpu_us": trip_cpu_us, "contact_sync_cpu_ms": syncs_cpu * 1e3 / ns.contact_syncs,
            "drain_cpu_ms": drain_cpu_ms, "contacts": ns.contacts, "messages": drained}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="meshcore_py session benchmark peer")
    ap.add_argument("address", help="HOST:PORT of a fresh `meshport sim`")
    ap.add_argument("--round-trips", type=int, default=500)
    ap.add_argument("--contact-syncs", type=int, default=5)
    ap.add_argument("--contacts", type=int, default=1000)
    ap.add_argument("--messages", type=int, default=1000)
    ns = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    try:
        res = asyncio.run(run(ns))
    except Wrong as e:
        print(f"meshcore_py_session_bench: {e}", file=sys.stderr)
        return 1
    res["meshcore_version"] = metadata.version("meshcore")
    res["python"] = platform.python_version()
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
