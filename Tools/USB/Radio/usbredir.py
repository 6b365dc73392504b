"""The device side ("usb-host") of the usbredir protocol 0.7, for one QEMU `usb-redir`
connection, with a modelled device (device.py) behind it and its serial data carried to a TCP
server. Every request from QEMU gets exactly one reply, in order per endpoint."""
import asyncio
import struct

from device import TYPE_CONTROL

# Packet types.
HELLO, DEVICE_CONNECT, DEVICE_DISCONNECT, RESET, INTERFACE_INFO, EP_INFO = 0, 1, 2, 3, 4, 5
SET_CONFIGURATION, GET_CONFIGURATION, CONFIGURATION_STATUS = 6, 7, 8
SET_ALT_SETTING, GET_ALT_SETTING, ALT_SETTING_STATUS = 9, 10, 11
START_INTERRUPT_RECEIVING, STOP_INTERRUPT_RECEIVING, INTERRUPT_RECEIVING_STATUS = 15, 16, 17
CANCEL_DATA_PACKET, FILTER_REJECT, FILTER_FILTER, DEVICE_DISCONNECT_ACK = 21, 22, 23, 24
CONTROL_PACKET, BULK_PACKET = 100, 101

SUCCESS, CANCELLED, INVAL, IOERROR, STALL = 0, 1, 2, 3, 4
TYPE_INVALID = 255

# Capabilities (bit numbers). QEMU's xHCI requires the last three; bulk streams and buffered
# bulk input are not offered.
CAP_CONNECT_DEVICE_VERSION, CAP_DEVICE_DISCONNECT_ACK = 1, 3
CAP_EP_INFO_MAX_PACKET_SIZE, CAP_64BITS_IDS, CAP_32BITS_BULK_LENGTH = 4, 5, 6
OUR_CAPS = (1 << CAP_CONNECT_DEVICE_VERSION | 1 << CAP_DEVICE_DISCONNECT_ACK |
            1 << CAP_EP_INFO_MAX_PACKET_SIZE | 1 << CAP_64BITS_IDS | 1 << CAP_32BITS_BULK_LENGTH)


def ep_index(address):
    """usbredir numbers endpoints 0-15 out, then 0-15 in."""
    return (address & 0x0F) | ((address & 0x80) >> 3)


class Session:
    """One QEMU connection: the parser, the device's bus state, the link to the server."""

    def __init__(self, device, server_port, reader, writer, log):
        self.device, self.server_port, self.log = device, server_port, log
        self.qemu_in, self.qemu_out = reader, writer
        self.peer_caps = 0
        self.configuration = 0
        self.attached = False              # the guest sees the device
        self.disconnect_acked = asyncio.Event()
        self.disconnect_acked.set()
        self.pending_in = []               # (id, length) of bulk IN requests waiting for data
        self.received = bytearray()        # data from the server the guest has not read yet
        self.server = None                 # the server's StreamWriter while linked

    def both(self, cap):
        return bool(OUR_CAPS & self.peer_caps & (1 << cap))

    # --- sending

    def send(self, kind, header=b"", data=b"", packet_id=0, ids64=None):
        if ids64 is None:
            ids64 = self.both(CAP_64BITS_IDS)
        head = struct.pack("<IIQ" if ids64 else "<III", kind, len(header) + len(data), packet_id)
        self.qemu_out.write(head + header + data)

    def send_ep_info(self):
        types, intervals, interfaces, sizes = [TYPE_INVALID] * 32, [0] * 32, [0] * 32, [0] * 32
        types[0] = types[16] = TYPE_CONTROL
        sizes[0] = sizes[16] = self.device.control_packet
        if self.configuration:
            for address, (kind, interval, interface, size) in self.device.endpoints.items():
                i = ep_index(address)
                types[i], intervals[i], interfaces[i], sizes[i] = kind, interval, interface, size
        header = bytes(types) + bytes(intervals) + bytes(interfaces)
        if self.both(CAP_EP_INFO_MAX_PACKET_SIZE):
            header += struct.pack("<32H", *sizes)
        self.send(EP_INFO, header)

    def send_interface_info(self):
        interfaces = self.device.interfaces if self.configuration else []
        columns = [[0] * 32 for _ in range(4)]
        for n, interface in enumerate(interfaces):
            for column, value in zip(columns, interface):
                column[n] = value
        self.send(INTERFACE_INFO, struct.pack("<I", len(interfaces)) + b"".join(bytes(c) for c in columns))

    def plug(self):
        self.configuration = 0
        self.device.reset()
        self.send_ep_info()
        self.send_interface_info()
        header = struct.pack("<BBBBHH", self.device.speed, *self.device.device_class,
                             self.device.vid, self.device.pid)
        if self.both(CAP_CONNECT_DEVICE_VERSION):
            header += struct.pack("<H", self.device.bcd)
        self.send(DEVICE_CONNECT, header)
        self.attached = True
        self.log("plugged in")

    def unplug(self):
        if not self.attached:
            return
        self.attached = False
        self.received.clear()
        # QEMU cancels what it had outstanding, then acknowledges.
        if self.both(CAP_DEVICE_DISCONNECT_ACK):
            self.disconnect_acked.clear()
        else:
            self.pending_in.clear()
        self.send(DEVICE_DISCONNECT)
        self.log("unplugged")

    # --- bulk data

    def bulk_reply(self, packet_id, endpoint, status, data=b"", length=None):
        length = len(data) if length is None else length
        header = struct.pack("<BBHI", endpoint, status, length & 0xFFFF, 0)
        if self.both(CAP_32BITS_BULK_LENGTH):
            header += struct.pack("<H", length >> 16)
        self.send(BULK_PACKET, header, data, packet_id)

    def deliver(self):
        """Answer waiting IN requests with what the server sent, as the chip's FIFO would."""
        while self.pending_in and self.received:
            packet_id, length = self.pending_in.pop(0)
            data = bytes(self.received[:length])
            del self.received[:length]
            self.bulk_reply(packet_id, self.device.data_in, SUCCESS, data)

    async def bulk(self, packet_id, endpoint, length, data):
        device = self.device
        if not self.attached:
            self.bulk_reply(packet_id, endpoint, IOERROR, length=0)
        elif not self.configuration or endpoint not in (device.data_in, device.data_out):
            self.bulk_reply(packet_id, endpoint, STALL, length=0)
        elif endpoint == device.data_out:
            if self.server is not None and device.uart_open():
                try:
                    self.server.write(data)
                    await self.server.drain()  # a busy radio NAKs until its buffer has room
                except ConnectionError:
                    pass                   # the link ends: link() unplugs the device
            self.bulk_reply(packet_id, endpoint, SUCCESS, length=len(data))
        else:
            self.pending_in.append((packet_id, length))
            self.deliver()

    def cancel(self, packet_id):
        for n, (pending, _) in enumerate(self.pending_in):
            if pending == packet_id:
                del self.pending_in[n]
                self.bulk_reply(packet_id, self.device.data_in, CANCELLED, length=0)
                return

    # --- control transfers

    def control(self, packet_id, header, data):
        endpoint, request, requesttype, _, value, index, length = struct.unpack("<BBBBHHH", header)
        if requesttype & 0x80:
            reply = self.device.control_in(request, requesttype, value, index, length) if self.attached else None
            status, reply = (STALL, b"") if reply is None else (SUCCESS, reply[:length])
        else:
            accepted = self.attached and self.device.control_out(request, requesttype, value, index, data)
            status, reply = (SUCCESS if accepted else STALL), b""
        if status != SUCCESS:
            self.log(f"stall: request {request:#x} type {requesttype:#x} value {value:#x} index {index}")
        answered = len(reply) if requesttype & 0x80 else (length if status == SUCCESS else 0)
        self.send(CONTROL_PACKET, struct.pack("<BBBBHHH", endpoint, request, requesttype, status,
                                              value, index, answered), reply, packet_id)

    # --- the connection

    async def read_packet(self, ids64):
        head = await self.qemu_in.readexactly(16 if ids64 else 12)
        kind, length, packet_id = struct.unpack("<IIQ" if ids64 else "<III", head)
        return kind, packet_id, await self.qemu_in.readexactly(length)

    async def run(self):
        """Both hellos use 32-bit ids; what follows, the ids both sides support."""
        name = b"Meshport radio model".ljust(64, b"\0")
        self.send(HELLO, name, struct.pack("<I", OUR_CAPS), ids64=False)
        kind, _, body = await self.read_packet(ids64=False)
        if kind != HELLO or len(body) < 64:
            raise ConnectionError(f"expected usbredir hello, got packet type {kind}")
        self.peer_caps = struct.unpack_from("<I", body, 64)[0] if len(body) >= 68 else 0
        version = body[:64].split(b"\0")[0].decode(errors="replace")
        self.log(f"peer {version!r}, caps {self.peer_caps:#x}")
        link = asyncio.create_task(self.link())
        try:
            ids64 = self.both(CAP_64BITS_IDS)
            while True:
                kind, packet_id, body = await self.read_packet(ids64)
                await self.handle(kind, packet_id, body)
                await self.qemu_out.drain()
        finally:
            link.cancel()
            if self.server is not None:
                self.server.close()

    async def handle(self, kind, packet_id, body):
        if kind == CONTROL_PACKET:
            self.control(packet_id, body[:10], body[10:])
        elif kind == BULK_PACKET:
            size = 10 if self.both(CAP_32BITS_BULK_LENGTH) else 8
            endpoint, _, low, _ = struct.unpack_from("<BBHI", body)
            high = struct.unpack_from("<H", body, 8)[0] if size == 10 else 0
            await self.bulk(packet_id, endpoint, low | high << 16, body[size:])
        elif kind == CANCEL_DATA_PACKET:
            self.cancel(packet_id)
        elif kind == SET_CONFIGURATION:
            ok = body[0] in (0, 1)
            if ok:
                self.configuration = body[0]
                self.send_ep_info()
                self.send_interface_info()
            self.send(CONFIGURATION_STATUS, bytes([SUCCESS if ok else STALL, self.configuration]),
                      packet_id=packet_id)
        elif kind == GET_CONFIGURATION:
            self.send(CONFIGURATION_STATUS, bytes([SUCCESS, self.configuration]), packet_id=packet_id)
        elif kind == SET_ALT_SETTING:
            interface, alt = body[0], body[1]
            ok = alt == 0 and interface < len(self.device.interfaces)
            if ok:
                self.send_ep_info()
                self.send_interface_info()
            self.send(ALT_SETTING_STATUS, bytes([SUCCESS if ok else STALL, interface, 0]), packet_id=packet_id)
        elif kind == GET_ALT_SETTING:
            self.send(ALT_SETTING_STATUS, bytes([SUCCESS, body[0], 0]), packet_id=packet_id)
        elif kind in (START_INTERRUPT_RECEIVING, STOP_INTERRUPT_RECEIVING):
            # Status notifications are never sent: the guest sees NAKs, as from an idle chip.
            known = self.device.endpoints.get(body[0], (None,))[0] is not None
            self.send(INTERRUPT_RECEIVING_STATUS, bytes([SUCCESS if known else INVAL, body[0]]),
                      packet_id=packet_id)
        elif kind == RESET:                # a bus reset ends the device's transfers
            for packet_id, _ in self.pending_in:
                self.bulk_reply(packet_id, self.device.data_in, CANCELLED, length=0)
            self.pending_in.clear()
            self.configuration = 0
            self.device.reset()
        elif kind == DEVICE_DISCONNECT_ACK:
            self.pending_in.clear()        # the old device's: QEMU no longer waits for them
            self.disconnect_acked.set()
        elif kind in (FILTER_REJECT, FILTER_FILTER):
            self.log(f"ignored filter packet {kind}")
        else:
            self.log(f"unexpected packet type {kind} ({len(body)} bytes)")

    async def link(self):
        """Plugged in while the server has us connected; unplugged while it does not."""
        while True:
            try:
                reader, self.server = await asyncio.open_connection("127.0.0.1", self.server_port)
            except OSError:
                await asyncio.sleep(1)
                continue
            await self.disconnect_acked.wait()
            self.plug()
            await self.qemu_out.drain()
            try:
                while data := await reader.read(4096):
                    if self.device.uart_open():
                        self.received += data
                        self.deliver()
                        await self.qemu_out.drain()
            except ConnectionError:
                pass
            self.server.close()
            self.server = None
            self.unplug()
            await self.qemu_out.drain()
            await asyncio.sleep(1)


async def serve(device, server_port, reader, writer, log):
    """Runs one QEMU connection to its end."""
    try:
        await Session(device, server_port, reader, writer, log).run()
    except (asyncio.IncompleteReadError, ConnectionError) as error:
        log(f"QEMU connection ended: {error!r}")
    finally:
        writer.close()
