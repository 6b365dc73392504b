#!/usr/bin/env python3
"""
The BLE benchmark's peer: Bumble's own LE host (Python) against the emulated world
(Tools/BLE/world.py bridged to `meshport sim`), measuring what MeshportBLEBench measures
for Meshport's host on the same world:

  (a) connect + pair (LE Secure Connections, passkey) + first companion frame round trip
      (APP_START -> SELF_INFO), CONNECTS times; every connect pairs (no bond is kept, so
      Bumble does not scan to resolve the radio's address with a stored IRK first);
  (b) frame round trips on the last link (GET_DEVICE_TIME -> CURR_TIME, Write Request as
      Meshport's link writes), ROUND_TRIPS times.

Usage: bumble_host_bench.py HCI ADDRESS [CONNECTS] [ROUND_TRIPS]
  HCI: tcp:HOST:PORT (the world's H4 port, as in Meshport's hci=) or a Bumble transport name
  (tcp-client:HOST:PORT).
Prints one JSON object with MeshportBLEBench's keys (Tools/Benchmarks/report.py, group ble):
client, bumble_version, connect_pair_first_frame_s {median, mean, min, p90, max, all},
round_trip_s {median, mean, min, p90, max, count}, round_trip_cpu_s (CPU seconds of this
process per round trip).

Flow difference to Meshport's host, on purpose small: Bumble pairs right after connecting;
Meshport pairs when the radio refuses its first write (Insufficient Authentication), which
costs one more ATT round trip (about a millisecond on the emulated link).
"""
from __future__ import annotations

import asyncio
import json
import os
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'BLE'))
from nus_central import (APP_START, CURR_TIME, GET_DEVICE_TIME, SELF_INFO,  # noqa: E402
                         Central)


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def figures(values: list[float]) -> dict:
    ordered = sorted(values)
    return {'median': statistics.median(values), 'mean': statistics.fmean(values),
            'min': ordered[0], 'p90': ordered[len(ordered) * 9 // 10], 'max': ordered[-1]}


def transport_name(spec: str) -> str:
    if spec.startswith('tcp:'):
        return 'tcp-client:' + spec[len('tcp:'):]
    return spec


async def run(spec: str, address: str, connects: int, round_trips: int) -> dict:
    central = Central()
    await central.open(transport_name(spec))
    try:
        connect_times = []
        link = None
        for i in range(connects):
            # No bond is kept, as in Meshport's run: every connect pairs, and Bumble does
            # not scan first to resolve the radio's identity address with a stored IRK.
            await central.forget()
            start = time.perf_counter()
            link = await central.link(address, pair=True)
            await link.request(APP_START, SELF_INFO)
            connect_times.append(time.perf_counter() - start)
            if i < connects - 1:
                await link.close()
                await link.wait_gone()
        trips = []
        cpu_start = cpu()
        for _ in range(round_trips):
            start = time.perf_counter()
            await link.send(GET_DEVICE_TIME, with_response=True)
            while (await link.next_frame())[:1] != bytes([CURR_TIME]):
                pass
            trips.append(time.perf_counter() - start)
        cpu_used = cpu() - cpu_start
        await link.close()
        await link.wait_gone()
    finally:
        await central.close()
    import bumble
    return {
        'client': 'bumble',
        'bumble_version': getattr(bumble, '__version__', None),
        'connect_pair_first_frame_s': {**figures(connect_times), 'all': connect_times},
        'round_trip_s': {**figures(trips), 'count': len(trips)},
        'round_trip_cpu_s': cpu_used / max(1, round_trips),
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    connects = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    round_trips = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    if connects < 1 or round_trips < 1:
        sys.exit('CONNECTS and ROUND_TRIPS must be at least 1')
    result = asyncio.run(asyncio.wait_for(
        run(sys.argv[1], sys.argv[2], connects, round_trips), 60 + connects * 10 + round_trips))
    print(json.dumps(result, sort_keys=True))


if __name__ == '__main__':
    main()
