#!/usr/bin/env python3
"""
Emulated BLE "world" for testing an external BLE central host over HCI H4.

  * Controller C0 is exposed on a byte transport (default tcp-server:127.0.0.1:9001).
    Whatever connects there is the *host* of C0 and speaks HCI H4
    (1 packet-indicator byte: 01 cmd, 02 ACL, 04 event; then the HCI packet).
    C0 delivers controller->host ACL data in 27-byte fragments (--acl-fragment) and
    drops host->controller ACL packets longer than its LE buffer size (27 bytes).
  * Controllers C1..Cn sit on the same in-process virtual link ("the air"); each
    one has an in-process host acting as a MeshCore-like companion radio:
      - advertises flags + 128-bit NUS UUID, name in the scan response
      - GATT: Nordic UART Service 6E400001-..., RX 6E400002 (write / write w/o rsp),
        TX 6E400003 (read + notify); one companion frame per write / notification
      - echo mode (default): every RX write is notified back on TX
      - bridge mode (--bridge HOST:PORT): one TCP connection to a MeshCore
        companion endpoint per BLE connection; RX writes go out as '<' + u16 LE
        length + payload, '>' frames coming back are notified on TX
      - security: DisplayOnly IO capability + fixed 6-digit passkey (default 123456),
        MITM required (Just Works rejected), characteristics require an authenticated
        (paired) link, optional SMP Security Request on connect.

  * Link losses and cuts on request (--control stdin): a radio that vanishes, a PDU cut
    after its first fragment, a radio that forgot its bonds (see README.md).

Usage: python world.py [--port 9001|0] [--name MeshCore-TEST] [--passkey 123456]
                       [--bridge HOST:PORT] [--drop-on-bridge-close] [--bridge-max-frame 244]
                       [--pairing any|sc-only|legacy-only] [--no-security]
                       [--security-request] [--conn-update none|l2cap|ll]
                       [--peripherals N] [--noise] [--control none|stdin]
                       [--ext] [--acl-fragment 27] [--lenient-acl]
                       [--snoop FILE.btsnoop] [-v]
Prints one line 'WORLD READY transport=tcp-server:127.0.0.1:PORT peripherals=ADDR,...
names=NAME,... noise=ADDR|none mode=echo|bridge:HOST:PORT control=none|stdin' on stdout
once the port listens (--port 0: a free port, reported here). Stop it with SIGINT/SIGTERM,
or (--control stdin) by closing its stdin.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import struct
import sys
import threading
import time

from bumble import hci, ll, smp
from bumble.controller import Controller
from bumble.core import AdvertisingData, UUID
from bumble.device import Device, DeviceConfiguration
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.host import Host
from bumble.link import LocalLink
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.snoop import BtSnooper, Snooper
from bumble.transport import open_transport

log = logging.getLogger('world')

NUS_SERVICE = UUID('6E400001-B5A3-F393-E0A9-E50E24DCCA9E')
NUS_RX = UUID('6E400002-B5A3-F393-E0A9-E50E24DCCA9E')  # central -> peripheral
NUS_TX = UUID('6E400003-B5A3-F393-E0A9-E50E24DCCA9E')  # peripheral -> central


# -----------------------------------------------------------------------------
# Small fidelity fixes on top of bumble.controller / bumble.link
# -----------------------------------------------------------------------------
class WorldLink(LocalLink):
    """LocalLink that sends LE ACL data from the address actually used by the
    connection (stock LocalLink always uses the sender's *random* address, which
    silently drops all ACL data when the central connected with own_address_type
    = public)."""

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        from bumble.core import PhysicalTransport

        if transport == PhysicalTransport.LE:
            conn = sender_controller.le_connections.get(destination_address)
            if conn is not None:
                dest = self.find_le_controller(destination_address)
                if dest is not None:
                    src = conn.self_address
                    asyncio.get_running_loop().call_soon(
                        lambda: dest.on_link_acl_data(src, transport, data)
                    )
                return
        return super().send_acl_data(
            sender_controller, destination_address, transport, data
        )


class WorldController(Controller):
    """Controller that (when it is a 'legacy' controller, i.e. no LE extended
    advertising feature) reports ADV_IND with the advertising data and, for an
    active scan only, a SCAN_RSP carrying the advertiser's *scan response* data
    (stock Controller repeats the advertising data as SCAN_RSP, even for passive
    scans)."""

    def reset_state(self) -> None:
        """Bring the LE state back to power-on defaults: stop scanning/advertising,
        drop a pending LE Create Connection, and terminate every LE connection
        (the peer gets LL_TERMINATE_IND -> Disconnection Complete, so peripherals
        restart advertising). Stock Controller's HCI_Reset is a no-op ("TODO")."""
        self.le_scan_enable = False
        self.pending_le_connection = None
        self.le_legacy_advertiser.stop()
        for adv_set in list(self.advertising_sets.values()):
            adv_set.stop()
        self.advertising_sets.clear()
        for conn in list(self.le_connections.values()):
            if self.link:
                conn.send_ll_control_pdu(
                    ll.TerminateInd(
                        hci.HCI_ErrorCode.REMOTE_USER_TERMINATED_CONNECTION_ERROR
                    )
                )
            self.le_connections.pop(conn.peer_address, None)
        self.event_mask = 0
        self.le_event_mask = 0

    def on_le_disconnected(self, connection, reason):
        self.cut_notify.discard(connection.peer_address)
        self.cut_write.discard(connection.handle)
        return super().on_le_disconnected(connection, reason)

    def on_hci_reset_command(self, command):
        self.reset_state()
        return super().on_hci_reset_command(command)

    # --- link loss (controls) -------------------------------------------------
    # A lost radio link sends no LL_TERMINATE_IND: both controllers just report
    # Disconnection Complete, with Connection Timeout (0x08) as after a supervision
    # timeout.
    LINK_LOSS = hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR

    def lose_link(self, peer_address, reason=None) -> bool:
        """Drops the LE link to peer_address on both sides at once; False if none."""
        reason = self.LINK_LOSS if reason is None else reason
        conn = self.le_connections.get(peer_address)
        if conn is None:
            return False
        self.cut_write.discard(conn.handle)
        self.on_le_disconnected(conn, reason)
        other = self.link.find_le_controller(peer_address) if self.link else None
        if other is not None:
            theirs = other.le_connections.get(conn.self_address)
            if theirs is not None:
                other.on_le_disconnected(theirs, reason)
        return True

    # Controller -> host ACL: stock Controller hands the whole L2CAP PDU to the host
    # in one ACL packet. A real controller delivers LL-sized fragments (27 bytes
    # without Data Length Extension): first fragment PB=0b10, then PB=0b01.
    c2h_acl_fragment = 0  # 0 = no fragmentation (stock behaviour)
    # Host -> controller ACL: reject packets longer than LE_Read_Buffer_Size says.
    strict_acl = False

    def on_link_acl_data(self, sender_address, transport, data):
        from bumble.core import PhysicalTransport

        n = self.c2h_acl_fragment
        conn = self.le_connections.get(sender_address)
        if conn is not None and sender_address in self.cut_notify and len(data) > (n or 27):
            # The 'cut' control: the host gets the first fragment, then the link is lost.
            self.cut_notify.discard(sender_address)
            first = data[: n or 27]
            self.send_hci_packet(hci.HCI_AclDataPacket(conn.handle, 2, 0, len(first), first))
            log.info(f'[{self.name}] cut: delivered {len(first)} of {len(data)} bytes '
                     f'from {sender_address}, then link loss')
            self.lose_link(sender_address)
            return
        if not n or transport != PhysicalTransport.LE or conn is None or len(data) <= n:
            return super().on_link_acl_data(sender_address, transport, data)
        for i in range(0, len(data), n):
            chunk = data[i : i + n]
            self.send_hci_packet(
                hci.HCI_AclDataPacket(conn.handle, 2 if i == 0 else 1, 0, len(chunk), chunk)
            )

    # Commands the stock Controller leaves unanswered (a host waiting for their
    # Command Complete/Status would hang): LE_Encrypt, LE_Read_Local_P-256_Public_Key,
    # LE_Generate_DHKey [v1/v2] are implemented; any other unknown command gets a
    # Command Status with 0x01 Unknown HCI Command.
    EXTRA_COMMANDS = (
        hci.HCI_LE_ENCRYPT_COMMAND,
        hci.HCI_LE_READ_LOCAL_P_256_PUBLIC_KEY_COMMAND,
        hci.HCI_LE_GENERATE_DHKEY_COMMAND,
        hci.HCI_LE_GENERATE_DHKEY_V2_COMMAND,
    )
    # Debug private key, Core Vol 3 Part H 2.3.5.6.1
    DEBUG_P256_PRIVATE = bytes.fromhex(
        '3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd')

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.supported_commands = set(self.supported_commands) | set(self.EXTRA_COMMANDS)
        self.p256_key = None
        self.cut_notify = set()  # peer addresses: cut their next multi-fragment PDU
        self.cut_write = set()  # connection handles: cut the host's next fragmented PDU

    def _send_raw(self, raw: bytes):
        if self.host:
            asyncio.get_running_loop().call_soon(self.host.on_packet, raw)

    def _command_status(self, status: int, op: int):
        self._send_raw(bytes([0x04, 0x0F, 4, status, 1]) + struct.pack('<H', op))

    def _le_meta(self, subevent: int, params: bytes):
        self._send_raw(bytes([0x04, 0x3E, 1 + len(params), subevent]) + params)

    def on_hci_command_packet(self, command):
        from bumble import crypto

        op = command.op_code
        params = bytes(command.parameters or b'')
        if op == hci.HCI_LE_ENCRYPT_COMMAND:
            # Key and plaintext little endian (LSO first), result too.
            if len(params) != 32:
                out = bytes([hci.HCI_ErrorCode.INVALID_COMMAND_PARAMETERS_ERROR]) + bytes(16)
            else:
                out = bytes([0]) + crypto.e(params[:16], params[16:32])
            self._send_raw(bytes([0x04, 0x0E, 3 + len(out), 1]) + struct.pack('<H', op) + out)
            return
        if op == hci.HCI_LE_READ_LOCAL_P_256_PUBLIC_KEY_COMMAND:
            self._command_status(0, op)
            self.p256_key = crypto.EccKey.generate()
            # LE Read Local P-256 Public Key Complete: X, Y little endian
            self._le_meta(0x08, bytes([0]) + self.p256_key.x[::-1] + self.p256_key.y[::-1])
            return
        if op in (hci.HCI_LE_GENERATE_DHKEY_COMMAND, hci.HCI_LE_GENERATE_DHKEY_V2_COMMAND):
            if len(params) < 64:
                return self._command_status(
                    hci.HCI_ErrorCode.INVALID_COMMAND_PARAMETERS_ERROR, op)
            self._command_status(0, op)
            if op == hci.HCI_LE_GENERATE_DHKEY_V2_COMMAND and params[64:65] == b'\x01':
                key = crypto.EccKey.from_private_key_bytes(self.DEBUG_P256_PRIVATE)
            else:
                key = self.p256_key = self.p256_key or crypto.EccKey.generate()
            try:
                status, dhkey = 0, key.dh(params[:32][::-1], params[32:64][::-1])[::-1]
            except Exception:  # not a point on the curve
                status, dhkey = hci.HCI_ErrorCode.INVALID_COMMAND_PARAMETERS_ERROR, b'\xff' * 32
            self._le_meta(0x09, bytes([status]) + dhkey)  # LE Generate DHKey Complete
            return
        handler = getattr(self, f'on_{command.name.lower()}', None)
        if handler is None and not isinstance(command, hci.HCI_SyncCommand):
            log.warning(f'[{self.name}] unsupported HCI command 0x{op:04X} '
                        f'({command.name}): Command Status 0x01')
            self._command_status(hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR, op)
            return
        return super().on_hci_command_packet(command)

    def on_hci_acl_data_packet(self, packet):
        handle = packet.connection_handle
        if handle in self.cut_write and packet.pb_flag == 0 and len(packet.data) >= 4 \
                and struct.unpack_from('<H', packet.data)[0] + 4 > len(packet.data):
            # The 'cut write' control: the first fragment of a longer PDU never arrives.
            conn = self.find_le_connection_by_handle(handle)
            if conn is not None:
                log.info(f'[{self.name}] cut: host PDU of '
                         f'{struct.unpack_from("<H", packet.data)[0] + 4} bytes on handle '
                         f'0x{handle:04X} lost after its first fragment: link loss')
                self.lose_link(conn.peer_address)
                return
        if self.strict_acl and len(packet.data) > self.le_acl_data_packet_length:
            log.error(
                f'[{self.name}] host sent an ACL packet of {len(packet.data)} bytes '
                f'(> LE buffer size {self.le_acl_data_packet_length}): DROPPED. '
                'Fragment L2CAP PDUs to the size from LE_Read_Buffer_Size.'
            )
            return
        return super().on_hci_acl_data_packet(packet)

    def on_hci_le_set_extended_scan_parameters_command(self, command):
        if getattr(command, 'scan_types', None):
            self.le_scan_type = command.scan_types[0]
        return super().on_hci_le_set_extended_scan_parameters_command(command)

    def _scan_response_of(self, address) -> bytes:
        adv_ctrl = self.link.find_le_controller(address) if self.link else None
        if adv_ctrl is None:
            return b''
        for adv_set in adv_ctrl.advertising_sets.values():
            if adv_set.enabled and adv_set.address == address:
                return bytes(adv_set.scan_response_data)
        return bytes(adv_ctrl.le_legacy_advertiser.scan_response_data)

    def on_advertising_pdu(self, pdu):
        if isinstance(pdu, ll.AdvExtInd) or (
            self.le_features & hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
        ):
            # Extended scanner: stock Controller repeats the advertising data as
            # the scan response. Report the real scan response (active scan only),
            # then let the stock code handle periodic syncs / pending connections.
            if not (
                self.le_scan_enable
                and self.le_features & hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
            ):
                return super().on_advertising_pdu(pdu)
            ET = hci.HCI_LE_Extended_Advertising_Report_Event.EventType
            kinds = [(ET.CONNECTABLE_ADVERTISING | ET.SCANNABLE_ADVERTISING, pdu.data)]
            if self.le_scan_type == 1:
                kinds.append((ET.CONNECTABLE_ADVERTISING | ET.SCANNABLE_ADVERTISING
                              | ET.SCAN_RESPONSE,
                              self._scan_response_of(pdu.advertiser_address)))
            for event_type, data in kinds:
                self.send_hci_packet(hci.HCI_LE_Extended_Advertising_Report_Event([
                    hci.HCI_LE_Extended_Advertising_Report_Event.Report(
                        event_type=event_type,
                        address_type=pdu.advertiser_address.address_type,
                        address=pdu.advertiser_address,
                        primary_phy=hci.Phy.LE_1M,
                        secondary_phy=hci.Phy.LE_1M,
                        advertising_sid=0,
                        tx_power=0,
                        rssi=-50,
                        periodic_advertising_interval=0,
                        direct_address_type=0,
                        direct_address=hci.Address.ANY,
                        data=data,
                    )
                ]))
            self.le_scan_enable = False
            try:
                return super().on_advertising_pdu(pdu)
            finally:
                self.le_scan_enable = True

        if self.le_scan_enable:
            reports = [
                hci.HCI_LE_Advertising_Report_Event.Report(
                    event_type=hci.HCI_LE_Advertising_Report_Event.EventType.ADV_IND,
                    address_type=pdu.advertiser_address.address_type,
                    address=pdu.advertiser_address,
                    data=pdu.data,
                    rssi=-50,
                )
            ]
            if self.le_scan_type == 1:  # active scanning
                adv_ctrl = self.link.find_le_controller(pdu.advertiser_address)
                scan_rsp = (
                    adv_ctrl.le_legacy_advertiser.scan_response_data
                    if adv_ctrl is not None
                    else b''
                )
                reports.append(
                    hci.HCI_LE_Advertising_Report_Event.Report(
                        event_type=hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP,
                        address_type=pdu.advertiser_address.address_type,
                        address=pdu.advertiser_address,
                        data=bytes(scan_rsp),
                        rssi=-50,
                    )
                )
            for report in reports:
                self.send_hci_packet(hci.HCI_LE_Advertising_Report_Event([report]))

        if (
            pending := self.pending_le_connection
        ) and pending.peer_address == pdu.advertiser_address:
            self.create_le_connection(pdu.advertiser_address)


STOCK = False  # --stock: use bumble's unmodified Controller / LocalLink


def make_controller(name, link, ext: bool, public_address=None, **kw) -> Controller:
    cls = Controller if STOCK else WorldController
    c = cls(name, link=link, public_address=public_address, **kw)
    if not ext:
        # Look like a BT 4.2/5.0 controller without extended advertising: hosts then
        # use the legacy LE scan/advertise/create-connection commands and get plain
        # LE Advertising Report events.
        c.le_features = c.le_features & ~(
            hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
            | hci.LeFeatureMask.LE_PERIODIC_ADVERTISING
        )
    return c


# -----------------------------------------------------------------------------
# Security
# -----------------------------------------------------------------------------
class FixedPasskeyDelegate(PairingDelegate):
    """DisplayOnly device with a static passkey (what MeshCore firmware does)."""

    def __init__(self, passkey: int):
        super().__init__(io_capability=PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY)
        self.passkey = passkey

    async def generate_passkey(self) -> int:
        return self.passkey

    async def display_number(self, number: int, digits: int) -> None:
        log.info(f'[SMP] peripheral "displays" passkey {number:0{digits}d}')


def make_session_class(require_mitm: bool, sc_only: bool):
    """smp.Session subclass that refuses pairings that would not be authenticated
    (Just Works) and, optionally, legacy pairing. Stock Bumble accepts Just Works
    even when mitm=True and marks such links 'authenticated'."""

    class StrictSession(smp.Session):
        async def on_smp_pairing_request_command_async(self, command):
            peer_sc = bool(command.auth_req & smp.AuthReq.SC)
            sc = self.sc and peer_sc
            if sc_only and not sc:
                log.warning('[SMP] rejecting legacy pairing (sc-only)')
                self.send_pairing_failed(smp.ErrorCode.AUTHENTICATION_REQUIREMENTS)
                return
            if require_mitm and command.oob_data_flag == 0:
                details = self.PAIRING_METHODS[command.io_capability][
                    self.io_capability
                ]
                if isinstance(details, tuple) and len(details) == 2:
                    details = details[1 if sc else 0]
                method = (
                    details
                    if isinstance(details, smp.PairingMethod)
                    else details[0]
                )
                if method == smp.PairingMethod.JUST_WORKS:
                    log.warning(
                        '[SMP] rejecting Just Works pairing (peer IO capability '
                        f'{command.io_capability}); passkey entry required'
                    )
                    self.send_pairing_failed(
                        smp.ErrorCode.AUTHENTICATION_REQUIREMENTS
                    )
                    return
            log.info(
                f'[SMP] pairing request: io_cap={command.io_capability} '
                f'auth_req=0x{int(command.auth_req):02x} sc={sc} '
                f'max_key={command.maximum_encryption_key_size} '
                f'init_keys=0x{int(command.initiator_key_distribution):02x} '
                f'resp_keys=0x{int(command.responder_key_distribution):02x}'
            )
            await super().on_smp_pairing_request_command_async(command)

    return StrictSession



# -----------------------------------------------------------------------------
# Bridge: NUS <-> MeshCore companion TCP endpoint
# -----------------------------------------------------------------------------
FRAME_APP_TO_RADIO = 0x3C  # '<'
FRAME_RADIO_TO_APP = 0x3E  # '>'


def encode_app_frame(payload: bytes) -> bytes:
    """App -> radio frame of the MeshCore serial/TCP companion protocol."""
    return bytes([FRAME_APP_TO_RADIO]) + struct.pack('<H', len(payload)) + payload


class RadioFrameParser:
    """Incremental parser for radio -> app frames ('>' + u16 LE length + payload).
    Resynchronises on garbage: bytes before a '>' are skipped, and a '>' whose
    length is 0 or larger than max_frame is treated as garbage too."""

    def __init__(self, max_frame: int = 512):
        self.max_frame = max_frame
        self.buf = bytearray()
        self.skipped = 0

    def feed(self, data: bytes) -> list[bytes]:
        self.buf += data
        frames = []
        while True:
            i = self.buf.find(FRAME_RADIO_TO_APP)
            if i < 0:
                self.skipped += len(self.buf)
                self.buf.clear()
                break
            if i:
                self.skipped += i
                del self.buf[:i]
            if len(self.buf) < 3:
                break
            n = self.buf[1] | (self.buf[2] << 8)
            if n == 0 or n > self.max_frame:
                self.skipped += 1
                del self.buf[:1]
                continue
            if len(self.buf) < 3 + n:
                break
            frames.append(bytes(self.buf[3 : 3 + n]))
            del self.buf[: 3 + n]
        return frames


class CompanionBridge:
    """One TCP connection to the companion endpoint per BLE connection. Every NUS RX
    write is sent as one '<' frame; every '>' frame received is notified on NUS TX
    (queued until the central has enabled TX notifications)."""

    def __init__(self, peripheral: 'NusPeripheral', connection, host: str, port: int,
                 max_frame: int = 512):
        self.p, self.connection = peripheral, connection
        self.host, self.port, self.max_frame = host, port, max_frame
        self.writer: asyncio.StreamWriter | None = None
        self.opening: asyncio.Task | None = None
        self.reader_task: asyncio.Task | None = None
        self.to_radio: list[bytes] = []  # frames waiting for the TCP connection
        self.to_app: list[bytes] = []  # payloads waiting for the TX subscription
        self.closed = False
        self.tag = f'[{peripheral.name}] bridge {host}:{port}'

    def open(self):
        if self.closed or self.writer is not None:
            return
        if self.opening is None or self.opening.done():
            self.opening = asyncio.ensure_future(self._open())

    async def _open(self):
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port)
        except OSError as e:
            log.warning(f'{self.tag}: connect failed: {e}; '
                        f'dropping {len(self.to_radio)} frame(s)')
            self.to_radio.clear()
            return
        if self.closed:
            writer.close()
            return
        log.info(f'{self.tag}: TCP connected')
        self.writer = writer
        for frame in self.to_radio:
            writer.write(frame)
        self.to_radio.clear()
        self.reader_task = asyncio.ensure_future(self._read_loop(reader, writer))

    def send(self, payload: bytes):
        frame = encode_app_frame(payload)
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(frame)
        else:
            self.to_radio.append(frame)
            self.open()

    async def _read_loop(self, reader, writer):
        parser = RadioFrameParser(self.max_frame)
        try:
            while True:
                data = await reader.read(4096)
                if not data:
                    break
                before = parser.skipped
                for payload in parser.feed(data):
                    await self.deliver(payload)
                if parser.skipped != before:
                    log.warning(f'{self.tag}: skipped {parser.skipped - before} '
                                'garbage byte(s) (resync)')
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            if self.writer is writer:
                self.writer = None
            writer.close()
            if not self.closed:
                if self.p.drop_on_bridge_close:
                    # As a radio that reboots: the BLE link goes with its far side, and
                    # the central sees a link loss (no LL_TERMINATE_IND).
                    log.info(f'{self.tag}: endpoint closed the TCP connection: BLE link loss')
                    self.p.lose(self.connection)
                else:
                    log.info(f'{self.tag}: endpoint closed the TCP connection '
                             '(reopened on the next RX write)')

    def tx_enabled(self) -> bool:
        cccd = self.p.device.gatt_server.subscribers.get(self.connection, {}).get(
            self.p.tx.handle)
        return bool(cccd) and len(cccd) == 2 and bool(cccd[0] & 0x01)

    async def deliver(self, payload: bytes):
        if self.closed:
            return
        if not self.tx_enabled():
            self.to_app.append(payload)
            return
        await self.flush()
        await self.p.send(self.connection, payload)

    async def flush(self):
        while self.to_app and self.tx_enabled() and not self.closed:
            await self.p.send(self.connection, self.to_app.pop(0))

    def close(self):
        self.closed = True
        if self.opening and not self.opening.done():
            self.opening.cancel()
        if self.reader_task and not self.reader_task.done():
            self.reader_task.cancel()
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        log.info(f'{self.tag}: closed (BLE disconnected)')

# -----------------------------------------------------------------------------
# The NUS peripheral
# -----------------------------------------------------------------------------
class NusPeripheral:
    def __init__(
        self,
        controller: Controller,
        name: str,
        address: str,
        passkey: int = 123456,
        secure: bool = True,
        pairing: str = 'any',
        security_request: bool = False,
        max_mtu: int = 247,
        on_rx=None,
        name_in_adv: bool = False,
        conn_update: str = 'none',
        bridge: tuple[str, int] | None = None,
        bridge_max_frame: int = 512,
        adv_interval: int = 100,
    ):
        self.conn_update = conn_update
        self.drop_on_bridge_close = False
        self.bridge = bridge
        self.bridge_max_frame = bridge_max_frame
        self.bridges: dict[int, CompanionBridge] = {}  # by connection handle
        self.name = name
        self.address = address.upper()
        self.secure = secure
        self.security_request = security_request
        self.on_rx = on_rx or (self.forward if bridge else self.echo)

        config = DeviceConfiguration()
        config.name = name
        config.address = hci.Address(address)  # random static
        config.advertising_interval_min = adv_interval
        config.advertising_interval_max = adv_interval
        # MeshCore nRF52 layout: flags + NUS UUID in ADV_IND, name in SCAN_RSP.
        # (name_in_adv: flags + name in ADV_IND, empty SCAN_RSP; 128-bit UUID + name
        # do not both fit in 31 bytes.)
        config.advertising_data = bytes(
            AdvertisingData(
                [
                    (AdvertisingData.FLAGS, bytes([0x06])),
                    (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode('utf-8')),
                ]
            )
        ) if name_in_adv else bytes(
            AdvertisingData(
                [
                    (AdvertisingData.FLAGS, bytes([0x06])),
                    (
                        AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                        NUS_SERVICE.to_bytes(),
                    ),
                ]
            )
        )
        config.scan_response_data = b'' if name_in_adv else bytes(
            AdvertisingData(
                [(AdvertisingData.COMPLETE_LOCAL_NAME, name.encode('utf-8'))]
            )
        )
        config.keystore = None

        host = Host()
        host.controller = controller
        self.controller = controller
        self.device = Device(config=config, host=host)
        self.device.gatt_server.max_mtu = max_mtu

        rx_perm = Characteristic.WRITEABLE
        tx_perm = Characteristic.READABLE
        if secure:
            # ~ ESP_GATT_PERM_*_ENC_MITM / SECMODE_ENC_WITH_MITM
            # Unpaired access -> ATT Error 0x05 Insufficient Authentication (what
            # Nordic/ESP32 stacks answer). Adding *_REQUIRES_ENCRYPTION would make
            # Bumble answer 0x0F Insufficient Encryption on an unencrypted link.
            # Note: Bumble sets connection.authenticated after ANY successful
            # pairing; StrictSession below is what guarantees MITM (passkey).
            rx_perm |= Characteristic.WRITE_REQUIRES_AUTHENTICATION
            tx_perm |= Characteristic.READ_REQUIRES_AUTHENTICATION

        self.rx = Characteristic(
            NUS_RX,
            Characteristic.Properties.WRITE
            | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            rx_perm,
            CharacteristicValue(write=self._on_rx_write),
        )
        self.tx = Characteristic(
            NUS_TX,
            Characteristic.Properties.READ | Characteristic.Properties.NOTIFY,
            tx_perm,
            b'',
        )
        self.device.add_service(Service(NUS_SERVICE, [self.rx, self.tx]))
        self.tx.on('subscription', self._on_tx_subscription)

        if secure:
            delegate = FixedPasskeyDelegate(passkey)
            self.device.pairing_config_factory = lambda connection: PairingConfig(
                sc=(pairing != 'legacy-only'),
                mitm=True,
                bonding=True,
                delegate=delegate,
            )
            self.device.smp_session_proxy = make_session_class(
                require_mitm=True, sc_only=(pairing == 'sc-only')
            )
        else:
            self.device.pairing_config_factory = lambda connection: PairingConfig(
                sc=True, mitm=False, bonding=False, delegate=PairingDelegate()
            )

        self.device.on('connection', self._on_connection)

    async def start(self):
        await self.device.power_on()
        await self.device.start_advertising(auto_restart=True)
        log.info(
            f'[{self.name}] advertising as {self.device.random_address} '
            f'(secure={self.secure})'
        )

    # --- events ---------------------------------------------------------------
    def _on_connection(self, connection):
        t0 = time.monotonic()
        log.info(f'[{self.name}] connected: {connection}')

        def on_pairing_start():
            log.info(f'[{self.name}] pairing start (+{time.monotonic()-t0:.3f}s)')

        def on_pairing(keys):
            if self.conn_update != 'none':
                # MeshCore nRF52 asks for 15-30 ms, latency 4, 2 s timeout once secured
                asyncio.ensure_future(self._update_params(connection))
            log.info(
                f'[{self.name}] paired: sc={connection.sc} '
                f'authenticated={connection.authenticated} '
                f'keys: ltk={keys.ltk is not None} irk={keys.irk is not None} '
                f'(+{time.monotonic()-t0:.3f}s)'
            )

        def on_pairing_failure(reason):
            log.warning(f'[{self.name}] pairing FAILED: {reason!r}; disconnecting')
            asyncio.ensure_future(self._safe_disconnect(connection))

        def on_encryption_change(*_):
            log.info(
                f'[{self.name}] encryption={connection.encryption} '
                f'(+{time.monotonic()-t0:.3f}s)'
            )

        def on_mtu():
            log.info(f'[{self.name}] ATT MTU -> {connection.att_mtu}')

        def on_disconnection(reason):
            log.info(f'[{self.name}] disconnected: reason={reason}')
            bridge = self.bridges.pop(connection.handle, None)
            if bridge is not None:
                bridge.close()

        connection.on('pairing_start', on_pairing_start)
        connection.on('pairing', on_pairing)
        connection.on('pairing_failure', on_pairing_failure)
        connection.on('connection_encryption_change', on_encryption_change)
        connection.on('connection_att_mtu_update', on_mtu)
        connection.on('disconnection', on_disconnection)

        if self.bridge:
            bridge = CompanionBridge(self, connection, *self.bridge,
                                     max_frame=self.bridge_max_frame)
            self.bridges[connection.handle] = bridge
            bridge.open()

        if self.secure and self.security_request:
            # Ask the central to pair (SMP Security Request, auth_req bond|mitm|sc)
            self.device.request_pairing(connection)

    async def _update_params(self, connection):
        try:
            await connection.update_parameters(
                15, 30, 4, 2000, use_l2cap=(self.conn_update == 'l2cap')
            )
            log.info(
                f'[{self.name}] connection parameters updated via {self.conn_update}: '
                f'{connection.parameters}'
            )
        except Exception as e:
            log.warning(f'[{self.name}] connection parameter update failed: {e!r}')

    def lose(self, connection, reason=None):
        """Radio link loss: both sides see Disconnection Complete, no terminate PDU."""
        if hasattr(self.controller, 'lose_link'):
            self.controller.lose_link(connection.peer_address, reason)
        else:  # --stock controller: a plain disconnection
            asyncio.ensure_future(self._safe_disconnect(connection))

    async def _safe_disconnect(self, connection):
        try:
            await connection.disconnect()
        except Exception:
            pass

    async def _safe_disconnect_reason(self, connection, reason):
        try:
            await connection.disconnect(reason)
        except Exception as e:
            log.warning(f'[{self.name}] disconnect failed: {e!r}')

    def _on_rx_write(self, connection, value):
        log.info(f'[{self.name}] RX write {len(value)} bytes: {bytes(value).hex()}')
        try:
            self.on_rx(connection, bytes(value))
        except Exception:
            log.exception('on_rx callback failed')

    # Default RX handler: echo back on TX as notification(s)
    def echo(self, connection, data: bytes):
        asyncio.ensure_future(self.send(connection, data))

    # Bridge RX handler: forward to the companion TCP endpoint as one '<' frame
    def forward(self, connection, data: bytes):
        bridge = self.bridges.get(connection.handle)
        if bridge is not None:
            bridge.send(data)

    def _on_tx_subscription(self, bearer, notify_enabled, indicate_enabled):
        log.info(f'[{self.name}] TX notifications '
                 f'{"enabled" if notify_enabled else "disabled"}')
        bridge = self.bridges.get(getattr(bearer, 'handle', None))
        if bridge is not None and notify_enabled:
            asyncio.ensure_future(bridge.flush())

    async def send(self, connection, data: bytes):
        chunk = max(1, connection.att_mtu - 3)
        if len(data) > chunk:
            log.warning(f'[{self.name}] {len(data)}-byte frame > ATT_MTU-3 '
                        f'({chunk}): split over several notifications '
                        '(exchange a larger MTU)')
        for i in range(0, len(data), chunk):
            await self.device.notify_subscriber(connection, self.tx, data[i : i + chunk])


class NoisePeripheral:
    """A non-MeshCore connectable advertiser, to exercise scan filtering."""

    def __init__(self, controller, name='Other-Device', address='F1:00:00:00:00:99'):
        config = DeviceConfiguration()
        config.name = name
        config.address = hci.Address(address)
        config.advertising_interval_min = 150
        config.advertising_interval_max = 150
        config.advertising_data = bytes(
            AdvertisingData(
                [
                    (AdvertisingData.FLAGS, bytes([0x06])),
                    (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode()),
                ]
            )
        )
        host = Host()
        host.controller = controller
        self.device = Device(config=config, host=host)
        self.address = address

    async def start(self):
        await self.device.power_on()
        await self.device.start_advertising(auto_restart=True)


# -----------------------------------------------------------------------------
# Controls: one command per line on stdin (--control stdin), one reply line on stdout
# -----------------------------------------------------------------------------
CONTROL_HELP = ('commands: status [P] | drop [P] [REASON] | lose [P] | cut [P] [notify|write] '
                '| forget [P] | help  (P: peripheral number from 1 or its address; default 1)')


class Control:
    """Lets a test act on the world while it runs: disconnect or lose a peripheral's
    link, cut a PDU mid-transfer, make a peripheral forget its bonds. Each command
    gets exactly one line back: 'OK <command> ...' or 'ERR <command> <why>'."""

    def __init__(self, c0, peripherals):
        self.c0, self.peripherals = c0, peripherals

    def peripheral(self, word):
        if word is None:
            return self.peripherals[0]
        for i, p in enumerate(self.peripherals):
            if word == str(i + 1) or word.upper() == p.address:
                return p
        raise ValueError(f'no peripheral {word!r} (1..{len(self.peripherals)} or an address)')

    async def run(self, line: str) -> str:
        words = line.split()
        if not words:
            return 'ERR empty command; ' + CONTROL_HELP
        cmd, rest = words[0].lower(), words[1:]
        try:
            return f'OK {cmd} ' + await self.handle(cmd, rest)
        except (ValueError, LookupError) as e:
            return f'ERR {cmd} {e}'
        except Exception as e:  # a control must never stop the world
            log.exception(f'control {line!r} failed')
            return f'ERR {cmd} {type(e).__name__}: {e}'

    COMMANDS = ('status', 'drop', 'lose', 'cut', 'forget', 'help')

    async def handle(self, cmd, rest) -> str:
        if cmd not in self.COMMANDS:
            raise ValueError(f'unknown command; {CONTROL_HELP}')
        if cmd == 'help':
            return CONTROL_HELP
        p = self.peripheral(rest[0] if rest else None)
        links = list(p.device.connections.values())
        if cmd == 'status':
            bonds = await p.device.keystore.get_all() if p.device.keystore else []
            return (f'{p.address} name={p.name} links={len(links)} bonds={len(bonds)} '
                    f'bridges={len(p.bridges)}')
        if cmd == 'drop':
            # The radio ends the link (LL_TERMINATE_IND): the host sees REASON,
            # default 0x13 Remote User Terminated Connection.
            reason = int(rest[1], 0) if len(rest) > 1 else \
                hci.HCI_ErrorCode.REMOTE_USER_TERMINATED_CONNECTION_ERROR
            for c in links:
                await p._safe_disconnect_reason(c, reason)
            return f'{p.address} links={len(links)} reason=0x{reason:02X}'
        if cmd == 'lose':
            for c in links:
                p.lose(c)
            return f'{p.address} links={len(links)} reason=0x08'
        if cmd == 'cut':
            direction = rest[1].lower() if len(rest) > 1 else 'notify'
            conn = self.c0.le_connections.get(hci.Address(p.address))
            if conn is None:
                raise LookupError(f'{p.address} is not connected')
            if direction == 'notify':
                self.c0.cut_notify.add(conn.peer_address)
            elif direction == 'write':
                self.c0.cut_write.add(conn.handle)
            else:
                raise ValueError(f'direction {direction!r}: notify or write')
            return f'{p.address} {direction} armed'
        if cmd == 'forget':
            bonds = await p.device.keystore.get_all() if p.device.keystore else []
            if p.device.keystore:
                await p.device.keystore.delete_all()
            return f'{p.address} bonds={len(bonds)}'
        raise ValueError(f'unknown command; {CONTROL_HELP}')


def read_controls(loop, queue):
    """Thread body: stdin lines into the loop's queue; None at EOF."""
    for line in sys.stdin:
        loop.call_soon_threadsafe(queue.put_nowait, line)
    loop.call_soon_threadsafe(queue.put_nowait, None)


# -----------------------------------------------------------------------------
class Tap:
    """Packet sink wrapper that records HCI packets to a btsnoop file."""

    def __init__(self, sink, snooper, direction):
        self.sink, self.snooper, self.direction = sink, snooper, direction

    def on_packet(self, packet):
        self.snooper.snoop(bytes(packet), self.direction)
        self.sink.on_packet(packet)


async def run(args):
    global STOCK
    STOCK = args.stock
    link = LocalLink() if args.stock else WorldLink()

    transport = await open_transport(args.transport)
    server = getattr(transport, 'server', None)
    if server is not None and server.sockets:
        # --port 0: report the port the kernel picked.
        bound_host, bound_port = server.sockets[0].getsockname()[:2]
        args.transport = f'tcp-server:{bound_host}:{bound_port}'
    c0 = make_controller(
        'C0', link, args.ext, public_address=hci.Address(
            'C0:DE:C0:DE:00:01', hci.Address.PUBLIC_DEVICE_ADDRESS
        )
    )
    if not args.stock:
        c0.c2h_acl_fragment = args.acl_fragment
        c0.strict_acl = not args.lenient_acl
    bridge = None
    if args.bridge:
        bhost, _, bport = args.bridge.rpartition(':')
        bridge = (bhost or '127.0.0.1', int(bport))
    snoop_file = None
    if args.snoop:
        snoop_file = open(args.snoop, 'wb')
        snooper = BtSnooper(snoop_file)
        transport.source.set_packet_sink(
            Tap(c0, snooper, Snooper.Direction.HOST_TO_CONTROLLER)
        )
        c0.host = Tap(transport.sink, snooper, Snooper.Direction.CONTROLLER_TO_HOST)
    else:
        transport.source.set_packet_sink(c0)
        c0.host = transport.sink

    peripherals = []
    for i in range(args.peripherals):
        name = args.name if i == 0 else f'{args.name}-{i + 1}'
        c = make_controller(f'C{i + 1}', link, args.ext)
        peripherals.append(
            NusPeripheral(
                c,
                name=name,
                address=f'F0:00:00:00:00:{i + 1:02X}',
                passkey=args.passkey,
                secure=not args.no_security,
                pairing=args.pairing,
                security_request=args.security_request,
                max_mtu=args.mtu,
                name_in_adv=args.name_in_adv,
                conn_update=args.conn_update,
                bridge=bridge,
                bridge_max_frame=args.bridge_max_frame,
                adv_interval=args.adv_interval,
            )
        )
        peripherals[-1].drop_on_bridge_close = args.drop_on_bridge_close
    for p in peripherals:
        await p.start()
    noise = None
    if args.noise:
        noise = NoisePeripheral(make_controller('CN', link, args.ext))
        await noise.start()

    async def watch_host():
        # tcp-server transport: when the external host goes away without HCI_Disconnect
        # / HCI_Reset, drop its links so the next host finds a clean world, and forget
        # any half-received H4 packet it left behind.
        sink = getattr(transport.sink, 'sink', transport.sink)
        # (Only when no host is connected: a new host may already be talking, and it
        # sends HCI_Reset itself.)
        last = None
        while True:
            await asyncio.sleep(0.1)
            current = getattr(sink, 'transport', None)
            if last is not None and current is None:
                log.info('external host disconnected: resetting C0 LE state')
                parser = getattr(transport.source, 'parser', None)
                if parser is not None:
                    parser.reset()
                if hasattr(c0, 'reset_state'):
                    c0.reset_state()
            last = current

    if args.transport.startswith('tcp-server'):
        asyncio.ensure_future(watch_host())

    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))

    if args.control == 'stdin':
        control = Control(c0, peripherals)
        lines: asyncio.Queue = asyncio.Queue()
        threading.Thread(target=read_controls, args=(loop, lines), daemon=True).start()

        async def serve_controls():
            while (line := await lines.get()) is not None:
                if line.strip():
                    print(await control.run(line), flush=True)
            # stdin closed: whoever started us is gone (or done with us).
            log.info('stdin closed: stopping')
            stop.done() or stop.set_result(None)

        asyncio.ensure_future(serve_controls())

    # One line, space-separated key=value fields (values never contain spaces).
    print(f'WORLD READY transport={args.transport} '
          f'peripherals={",".join(p.address for p in peripherals)} '
          f'names={",".join(p.name for p in peripherals)} '
          f'noise={noise.address if noise else "none"} '
          f'mode={"bridge:%s:%d" % bridge if bridge else "echo"} '
          f'control={args.control}', flush=True)
    await stop
    await transport.close()
    if snoop_file:
        snoop_file.close()
    print('WORLD STOPPED', flush=True)


def main():
    # A parent may start us with signals blocked (its threads block them); SIGTERM must stop us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--transport', default=None,
                    help='Bumble transport for C0 (default tcp-server:127.0.0.1:PORT)')
    ap.add_argument('--port', type=int, default=9001)
    ap.add_argument('--name', default='MeshCore-TEST')
    ap.add_argument('--passkey', type=int, default=123456)
    ap.add_argument('--pairing', choices=['any', 'sc-only', 'legacy-only'], default='any')
    ap.add_argument('--no-security', action='store_true')
    ap.add_argument('--security-request', action='store_true',
                    help='peripheral sends SMP Security Request on connect')
    ap.add_argument('--peripherals', type=int, default=1)
    ap.add_argument('--noise', action='store_true', help='add a non-NUS advertiser')
    ap.add_argument('--ext', action='store_true',
                    help='keep LE extended advertising feature on the controllers')
    ap.add_argument('--adv-interval', type=int, default=100, metavar='MS',
                    help="radios' advertising interval; a connection waits for the next "
                         'advertisement')
    ap.add_argument('--mtu', type=int, default=247, help='peripheral max ATT MTU')
    ap.add_argument('--name-in-adv', action='store_true',
                    help='put the name in ADV_IND (flags+name) instead of SCAN_RSP')
    ap.add_argument('--conn-update', choices=['none', 'l2cap', 'll'], default='none',
                    help='peripheral requests new connection parameters after pairing')
    ap.add_argument('--bridge', metavar='HOST:PORT',
                    help='forward NUS frames to a MeshCore companion TCP endpoint '
                         '(default: echo RX writes back on TX)')
    ap.add_argument('--drop-on-bridge-close', action='store_true',
                    help='drop the BLE link when the bridge endpoint closes its TCP connection '
                         '(as a radio that reboots); the next connection opens a new one')
    ap.add_argument('--bridge-max-frame', type=int, default=244,
                    help="largest '>' frame accepted from the endpoint; longer "
                         'lengths are treated as garbage (resync)')
    ap.add_argument('--acl-fragment', type=int, default=27,
                    help='split controller->host ACL data into fragments of this '
                         'size like a real controller (0: one ACL packet per PDU)')
    ap.add_argument('--lenient-acl', action='store_true',
                    help='accept host->controller ACL packets larger than the LE '
                         'buffer size (default: drop them and log an error)')
    ap.add_argument('--stock', action='store_true',
                    help="use bumble's stock Controller/LocalLink (no fidelity fixes)")
    ap.add_argument('--control', choices=['none', 'stdin'], default='none',
                    help='stdin: read control commands from stdin, one reply line each on '
                         'stdout; the world stops when stdin closes (see README.md)')
    ap.add_argument('--snoop', help='btsnoop file of C0 host<->controller traffic')
    ap.add_argument('-v', '--verbose', action='count', default=0)
    args = ap.parse_args()
    if args.transport is None:
        # --port 0: the kernel picks a free port, the READY line reports it.
        args.transport = f'tcp-server:127.0.0.1:{args.port}'
    if any(c.isspace() or c == ',' for c in args.name):
        ap.error('--name must not contain spaces or commas (the READY line lists names)')
    logging.basicConfig(
        level=logging.DEBUG if args.verbose > 1 else logging.INFO,
        format='%(asctime)s.%(msecs)03d %(name)s %(levelname)s %(message)s',
        datefmt='%H:%M:%S',
    )
    if args.verbose < 2:
        for n in ('bumble', 'bumble.device', 'bumble.host', 'bumble.controller'):
            logging.getLogger(n).setLevel(logging.WARNING)
    asyncio.run(run(args))


if __name__ == '__main__':
    main()
