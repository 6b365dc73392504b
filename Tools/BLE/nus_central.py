"""
Bumble's own LE host as a MeshCore app would use it over BLE: connect to a radio,
pair with the passkey (or encrypt with the bond from an earlier pairing), exchange
the ATT MTU, find the Nordic UART Service, subscribe to TX and exchange companion
frames (one per RX write / TX notification).

Used by check_world.py (the world's self-check) and by the BLE benchmark peer
(Tools/Benchmarks/BLE/bumble_host_bench.py). Bonds live in this process's memory.
"""
from __future__ import annotations

import asyncio
import logging

from bumble import hci
from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

NUS_SERVICE = UUID('6E400001-B5A3-F393-E0A9-E50E24DCCA9E')
NUS_RX = UUID('6E400002-B5A3-F393-E0A9-E50E24DCCA9E')
NUS_TX = UUID('6E400003-B5A3-F393-E0A9-E50E24DCCA9E')

# Companion frames (Docs: Docs/protocol.md): APP_START -> SELF_INFO, GET_DEVICE_TIME ->
# CURR_TIME, DEVICE_QUERY -> DEVICE_INFO.
APP_START = bytes([0x01, 0x03]) + bytes(6) + b'meshport-ble-check'
SELF_INFO = 0x05
GET_DEVICE_TIME = bytes([0x05])
CURR_TIME = 0x09
DEVICE_QUERY = bytes([0x16, 0x03])
DEVICE_INFO = 0x0D

log = logging.getLogger('nus_central')


class Passkey(PairingDelegate):
    """A keyboard: the user types the PIN the radio shows (MeshCore: a fixed one)."""

    def __init__(self, passkey: int):
        super().__init__(io_capability=PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY)
        self.passkey = passkey
        self.asked = 0

    async def get_number(self) -> int:
        self.asked += 1
        return self.passkey


class Central:
    """One host on one H4 transport (e.g. tcp-client:127.0.0.1:PORT)."""

    def __init__(self, passkey: int = 123456, sc: bool = True,
                 address: str = 'E0:00:00:00:00:01'):
        self.delegate = Passkey(passkey)
        self.sc = sc
        self.address = address
        self.transport = None
        self.device: Device | None = None

    async def open(self, spec: str):
        self.transport = await open_transport(spec)
        self.device = Device.with_hci('MeshportCheck', hci.Address(self.address),
                                      self.transport.source, self.transport.sink)
        # The identity address we distribute must be the one we connect with (random
        # static), or the radio files the bond under an address it never sees again.
        self.device.pairing_config_factory = lambda connection: PairingConfig(
            sc=self.sc, mitm=True, bonding=True, delegate=self.delegate,
            identity_address_type=PairingConfig.AddressType.RANDOM)
        await self.device.power_on()  # HCI_Reset, controller info, event masks

    async def close(self):
        if self.transport is not None:
            await self.transport.close()
            self.transport = None

    async def forget(self):
        """Drops every bond (and the IRKs Bumble would otherwise scan to resolve)."""
        await self.device.keystore.delete_all()
        await self.device.refresh_resolving_list()

    async def link(self, address: str, pair: bool = True, timeout: float = 10) -> 'Link':
        """Connects and secures: pairs (pair=True) or encrypts with the bond."""
        connection = await asyncio.wait_for(
            self.device.connect(hci.Address(address),
                                own_address_type=hci.OwnAddressType.RANDOM),
            timeout)
        link = Link(connection)
        try:
            if pair:
                await asyncio.wait_for(connection.pair(), timeout)
            else:
                await asyncio.wait_for(connection.encrypt(), timeout)
            await link.setup(timeout)
        except BaseException:
            # A link that failed to come up is not left connected (the radio would
            # not advertise, and the next connect would wait forever).
            await link.close()
            raise
        return link


class Link:
    """A connected, secured radio: frames in, frames out."""

    def __init__(self, connection):
        self.connection = connection
        self.peer = Peer(connection)
        self.frames: asyncio.Queue[bytes] = asyncio.Queue()
        self.gone: asyncio.Future = asyncio.get_running_loop().create_future()
        connection.on('disconnection', self._on_disconnection)
        self.rx = self.tx = None

    def _on_disconnection(self, reason):
        if not self.gone.done():
            self.gone.set_result(reason)

    async def setup(self, timeout: float):
        await asyncio.wait_for(self.peer.request_mtu(247), timeout)
        await asyncio.wait_for(self.peer.discover_services([NUS_SERVICE]), timeout)
        service = self.peer.get_services_by_uuid(NUS_SERVICE)[0]
        await asyncio.wait_for(service.discover_characteristics(), timeout)
        self.rx = service.get_characteristics_by_uuid(NUS_RX)[0]
        self.tx = service.get_characteristics_by_uuid(NUS_TX)[0]
        await asyncio.wait_for(
            self.peer.subscribe(self.tx, lambda v: self.frames.put_nowait(bytes(v))), timeout)

    async def send(self, frame: bytes, with_response: bool = False):
        await self.peer.write_value(self.rx, frame, with_response=with_response)

    async def next_frame(self, timeout: float = 5) -> bytes:
        return await asyncio.wait_for(self.frames.get(), timeout)

    async def request(self, frame: bytes, answer: int, timeout: float = 5) -> bytes:
        """Sends a frame and returns the first frame starting with `answer` (pushes
        that arrive in between are skipped)."""
        await self.send(frame)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            reply = await self.next_frame(max(0.001, deadline - loop.time()))
            if reply[:1] == bytes([answer]):
                return reply

    async def wait_gone(self, timeout: float = 5) -> int:
        """The disconnection reason, once the link is gone."""
        return await asyncio.wait_for(asyncio.shield(self.gone), timeout)

    async def close(self):
        if not self.gone.done():
            try:
                await self.connection.disconnect()
            except Exception as e:  # already gone: nothing to close
                log.debug(f'disconnect: {e!r}')
