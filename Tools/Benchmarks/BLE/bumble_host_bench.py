#!/usr/bin/env python3
"""The peer of MeshportBLEBench: Bumble's own LE host on the same emulated world.

Per connect: connect + pair (LE Secure Connections, passkey 123456) + MTU + NUS discovery +
subscribe + first companion frame (APP_START -> SELF_INFO); then round trips
(GET_DEVICE_TIME -> CURRENT_TIME) on the last link. Prints one JSON object with the same keys
as Meshport's side.

Usage: bumble_host_bench.py HCI_TRANSPORT ADDRESS [CONNECTS] [ROUND_TRIPS]
       (HCI_TRANSPORT as Bumble names it: tcp-client:127.0.0.1:PORT)
"""
import asyncio
import json
import resource
import statistics
import sys
import time

from bumble import hci
from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

NUS = UUID('6E400001-B5A3-F393-E0A9-E50E24DCCA9E')
RX = UUID('6E400002-B5A3-F393-E0A9-E50E24DCCA9E')
TX = UUID('6E400003-B5A3-F393-E0A9-E50E24DCCA9E')
APP_START = bytes([0x01, 0x03]) + bytes(6) + b'bumble-bench'
GET_TIME = bytes([0x05])


class Typist(PairingDelegate):
    def __init__(self):
        super().__init__(io_capability=PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY)

    async def get_number(self):
        return 123456


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def main():
    spec, address = sys.argv[1], sys.argv[2]
    connects = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    trips = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    transport = await open_transport(spec)
    device = Device.with_hci('BumbleBench', hci.Address('E0:00:00:00:00:02'), transport.source, transport.sink)
    device.pairing_config_factory = lambda _: PairingConfig(
        sc=True, mitm=True, bonding=True, delegate=Typist(),
        identity_address_type=PairingConfig.AddressType.RANDOM)
    await device.power_on()
    target = hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS)

    connect_times = []
    frames: asyncio.Queue = asyncio.Queue()
    for i in range(connects):
        start = time.monotonic()
        connection = await device.connect(target, own_address_type=hci.OwnAddressType.RANDOM)
        await connection.pair()
        peer = Peer(connection)
        await peer.request_mtu(247)
        await peer.discover_services([NUS])
        service = peer.get_services_by_uuid(NUS)[0]
        await service.discover_characteristics()
        rx = service.get_characteristics_by_uuid(RX)[0]
        tx = service.get_characteristics_by_uuid(TX)[0]
        frames = asyncio.Queue()
        await peer.subscribe(tx, lambda value, q=frames: q.put_nowait(bytes(value)))
        await peer.write_value(rx, APP_START, with_response=True)
        while (await asyncio.wait_for(frames.get(), 5))[0] != 0x05:
            pass
        connect_times.append(time.monotonic() - start)
        if i < connects - 1:
            await connection.disconnect()
            await asyncio.sleep(0.05)

    round_trips = []
    cpu_start = cpu()
    for _ in range(trips):
        start = time.monotonic()
        await peer.write_value(rx, GET_TIME, with_response=True)
        while (await asyncio.wait_for(frames.get(), 5))[0] != 0x09:
            pass
        round_trips.append(time.monotonic() - start)
    cpu_used = cpu() - cpu_start
    await connection.disconnect()
    await transport.close()
    print(json.dumps({
        'client': 'bumble',
        'connect_pair_first_frame_s': {'median': statistics.median(connect_times), 'all': connect_times},
        'round_trip_s': {'median': statistics.median(round_trips), 'mean': statistics.fmean(round_trips), 'count': len(round_trips),
                         'p90': sorted(round_trips)[len(round_trips) * 9 // 10], 'max': max(round_trips)},
        'round_trip_cpu_s': cpu_used / max(1, trips),
    }, sort_keys=True))


asyncio.run(main())
