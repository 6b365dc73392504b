#!/usr/bin/env python3
"""A full-speed CDC-ACM radio outside the QEMU guest, attached to it over usbredir.

QEMU's `usb-redir` device connects to this program (the usbredir "usb-host" side), which
answers the guest's control and bulk transfers as a native-USB MeshCore board would (64-byte
bulk packets, a CDC-ACM function and a vendor interface, as ESP32-S3 boards have), and carries
the serial data to a TCP server (`meshport sim`). Its work runs on the host, as a real radio's
runs on the radio, so none of it competes with the guest's CPU.

When the server drops the link (a radio that resets), the device is unplugged from the guest and
plugged in again once the server accepts a new connection, retried every second.

    redir_acm.py --sim PORT [--id VID:PID] [--serial S] [--listen PORT] [-v]

Prints "redir_acm: listening on PORT" once QEMU may connect. Standard library only.
"""
import argparse
import asyncio
import struct
import sys

# Packet types (usbredir protocol 0.7).
HELLO, DEVICE_CONNECT, DEVICE_DISCONNECT, RESET, INTERFACE_INFO, EP_INFO = 0, 1, 2, 3, 4, 5
SET_CONFIGURATION, GET_CONFIGURATION, CONFIGURATION_STATUS = 6, 7, 8
SET_ALT_SETTING, GET_ALT_SETTING, ALT_SETTING_STATUS = 9, 10, 11
START_INTERRUPT_RECEIVING, STOP_INTERRUPT_RECEIVING, INTERRUPT_RECEIVING_STATUS = 15, 16, 17
CANCEL_DATA_PACKET, FILTER_REJECT, FILTER_FILTER, DEVICE_DISCONNECT_ACK = 21, 22, 23, 24
CONTROL_PACKET, BULK_PACKET, INTERRUPT_PACKET = 100, 101, 103

# Status codes.
SUCCESS, CANCELLED, INVAL, IOERROR, STALL = 0, 1, 2, 3, 4

# Capabilities (bit numbers); bulk streams and buffered bulk input are not offered.
CAP_CONNECT_DEVICE_VERSION, CAP_FILTER, CAP_DEVICE_DISCONNECT_ACK = 1, 2, 3
CAP_EP_INFO_MAX_PACKET_SIZE, CAP_64BITS_IDS, CAP_32BITS_BULK_LENGTH = 4, 5, 6
OUR_CAPS = (1 << CAP_CONNECT_DEVICE_VERSION | 1 << CAP_DEVICE_DISCONNECT_ACK |
            1 << CAP_EP_INFO_MAX_PACKET_SIZE | 1 << CAP_64BITS_IDS | 1 << CAP_32BITS_BULK_LENGTH)

SPEED_FULL = 1
TYPE_CONTROL, TYPE_BULK, TYPE_INTERRUPT, TYPE_INVALID = 0, 2, 3, 255
PACKET = 64                      # full-speed bulk and control packet size

# Endpoints: CDC notifications, CDC data, and the vendor interface's pair (never answered).
EP_NOTIFY, EP_DATA_OUT, EP_DATA_IN, EP_VENDOR_OUT, EP_VENDOR_IN = 0x82, 0x01, 0x81, 0x02, 0x83
INTERFACES = [(0, 0x02, 0x02, 0x00), (1, 0x0A, 0x00, 0x00), (2, 0xFF, 0xFF, 0x01)]
ENDPOINTS = {EP_NOTIFY: (TYPE_INTERRUPT, 1, 0), EP_DATA_OUT: (TYPE_BULK, 0, 1),
             EP_DATA_IN: (TYPE_BULK, 0, 1), EP_VENDOR_OUT: (TYPE_BULK, 0, 2),
             EP_VENDOR_IN: (TYPE_BULK, 0, 2)}


def descriptors(vid, pid):
    """Device and configuration descriptors."""
    device = struct.pack("<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0xEF, 0x02, 0x01, PACKET,
                         vid, pid, 0x0100, 1, 2, 3, 1)
    body = b"".join([
        bytes([9, 4, 0, 0, 1, 0x02, 0x02, 0x00, 4]),          # CDC communication, AT-less ACM
        bytes([5, 0x24, 0x00, 0x10, 0x01]),                   # header, CDC 1.10
        bytes([5, 0x24, 0x01, 0x00, 1]),                      # call management
        bytes([4, 0x24, 0x02, 0x02]),                         # ACM: line coding and state
        bytes([5, 0x24, 0x06, 0, 1]),                         # union: 0 controls 1
        struct.pack("<BBBBHB", 7, 5, EP_NOTIFY, 3, 64, 1),
        bytes([9, 4, 1, 0, 2, 0x0A, 0x00, 0x00, 5]),          # CDC data
        struct.pack("<BBBBHB", 7, 5, EP_DATA_OUT, 2, PACKET, 0),
        struct.pack("<BBBBHB", 7, 5, EP_DATA_IN, 2, PACKET, 0),
        bytes([9, 4, 2, 0, 2, 0xFF, 0xFF, 0x01, 0]),          # vendor (a debug unit)
        struct.pack("<BBBBHB", 7, 5, EP_VENDOR_OUT, 2, PACKET, 0),
        struct.pack("<BBBBHB", 7, 5, EP_VENDOR_IN, 2, PACKET, 0),
    ])
    iad = bytes([8, 0x0B, 0, 2, 0x02, 0x02, 0x00, 0])      # interfaces 0-1 are one function
    total = 9 + len(iad) + len(body)
    config = struct.pack("<BBHBBBBB", 9, 2, total, 3, 1, 0, 0x80, 50) + iad + body
    return device, config


def string_descriptor(text):
    data = text.encode("utf-16-le")
    return bytes([2 + len(data), 3]) + data


def ep_index(address):
    """usbredir numbers endpoints 0-15 out, then 0-15 in."""
    return (address & 0x0F) | ((address & 0x80) >> 3)


class Radio:
    """One QEMU connection: the usbredir parser, the device's state, the link to the server."""

    def __init__(self, args, reader, writer):
        self.args, self.qemu_in, self.qemu_out = args, reader, writer
        self.peer_caps = 0
        self.device, self.config = descriptors(*args.id)
        self.strings = {1: string_descriptor("Meshport test"),
                        2: string_descriptor("CDC-ACM test radio (full speed)"),
                        3: string_descriptor(args.serial), 4: string_descriptor("Radio"),
                        5: string_descriptor("Radio data")}
        self.configuration = 0
        self.line_coding = struct.pack("<IBBB", 115200, 0, 0, 8)
        self.line_state = 0
        self.attached = False              # the guest sees the device
        self.disconnect_acked = asyncio.Event()
        self.disconnect_acked.set()
        self.pending_in = []               # (id, length) of bulk IN transfers waiting for data
        self.received = bytearray()        # data from the server not yet read by the guest
        self.sim = None                    # the server's StreamWriter while linked

    def log(self, text):
        if self.args.verbose:
            print(f"redir_acm: {text}", file=sys.stderr, flush=True)

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
        sizes[0] = sizes[16] = PACKET
        if self.configuration:
            for address, (kind, interval, interface) in ENDPOINTS.items():
                i = ep_index(address)
                types[i], intervals[i], interfaces[i] = kind, interval, interface
                sizes[i] = 64 if address == EP_NOTIFY else PACKET
        header = bytes(types) + bytes(intervals) + bytes(interfaces)
        if self.both(CAP_EP_INFO_MAX_PACKET_SIZE):
            header += struct.pack("<32H", *sizes)
        self.send(EP_INFO, header)

    def send_interface_info(self):
        count = len(INTERFACES) if self.configuration else 0
        columns = [[0] * 32 for _ in range(4)]
        for n, interface in enumerate(INTERFACES[:count]):
            for column, value in zip(columns, interface):
                column[n] = value
        self.send(INTERFACE_INFO, struct.pack("<I", count) + b"".join(bytes(c) for c in columns))

    def plug(self):
        self.configuration = 0
        self.send_ep_info()
        self.send_interface_info()
        vid, pid = self.args.id
        header = struct.pack("<BBBBHH", SPEED_FULL, 0xEF, 0x02, 0x01, vid, pid)
        if self.both(CAP_CONNECT_DEVICE_VERSION):
            header += struct.pack("<H", 0x0100)
        self.send(DEVICE_CONNECT, header)
        self.attached = True
        self.log("plugged in")

    def unplug(self):
        if not self.attached:
            return
        self.attached = False
        self.received.clear()
        # QEMU cancels what it had outstanding, then acknowledges; every request gets one reply.
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
        """Answer waiting IN transfers with what the server sent, as the device's FIFO would."""
        while self.pending_in and self.received:
            packet_id, length = self.pending_in.pop(0)
            data = bytes(self.received[:length])
            del self.received[:length]
            self.bulk_reply(packet_id, EP_DATA_IN, SUCCESS, data)

    async def bulk(self, packet_id, endpoint, length, data):
        if not self.attached or endpoint not in (EP_DATA_IN, EP_DATA_OUT) or not self.configuration:
            # The vendor interface has nothing to say; the guest's driver never uses it.
            status = IOERROR if not self.attached else STALL
            self.bulk_reply(packet_id, endpoint, status, length=0)
        elif endpoint == EP_DATA_OUT:
            if self.sim is not None:
                self.sim.write(data)
                await self.sim.drain()     # a busy radio NAKs until its buffer has room
            self.bulk_reply(packet_id, endpoint, SUCCESS, length=len(data))
        else:
            self.pending_in.append((packet_id, length))
            self.deliver()

    def cancel(self, packet_id):
        for n, (pending, _) in enumerate(self.pending_in):
            if pending == packet_id:
                del self.pending_in[n]
                self.bulk_reply(packet_id, EP_DATA_IN, CANCELLED, length=0)
                return

    # --- control transfers

    def control_in(self, request, requesttype, value, index):
        """Data for an IN request, or None to stall."""
        if requesttype == 0x80 and request == 6:          # GET_DESCRIPTOR
            kind, n = value >> 8, value & 0xFF
            if kind == 1:
                return self.device
            if kind == 2 and n == 0:
                return self.config
            if kind == 3:
                return b"\x04\x03\x09\x04" if n == 0 else self.strings.get(n)
            return None                                   # no qualifier: full speed only
        if request == 0 and requesttype in (0x80, 0x81, 0x82):   # GET_STATUS
            return b"\x00\x00"
        if requesttype == 0xA1 and request == 0x21 and index == 0:   # GET_LINE_CODING
            return self.line_coding
        return None

    def control_out(self, request, requesttype, value, index, data):
        """True when an OUT request is accepted."""
        if requesttype == 0x21 and index == 0:
            if request == 0x20 and len(data) == 7:        # SET_LINE_CODING
                self.line_coding = data
                self.log("line coding %d baud, format %d, parity %d, %d bits"
                         % struct.unpack("<IBBB", data))
                return True
            if request == 0x22:                           # SET_CONTROL_LINE_STATE (DTR, RTS)
                self.line_state = value & 3
                self.log(f"DTR {value & 1}, RTS {value >> 1 & 1}")
                return True
            return request == 0x23                        # SEND_BREAK
        # CLEAR_FEATURE / SET_FEATURE on the device or an endpoint (halt, remote wake-up)
        return requesttype in (0x00, 0x02) and request in (1, 3)

    def control(self, packet_id, header, data):
        endpoint, request, requesttype, _, value, index, length = struct.unpack("<BBBBHHH", header)
        if requesttype & 0x80:
            reply = self.control_in(request, requesttype, value, index) if self.attached else None
            status, reply = (STALL, b"") if reply is None else (SUCCESS, reply[:length])
        else:
            accepted = self.attached and self.control_out(request, requesttype, value, index, data)
            status, reply = (SUCCESS if accepted else STALL), b""
        if status != SUCCESS:
            self.log(f"stall: request {request:#x} type {requesttype:#x} value {value:#x} index {index}")
        answered = len(reply) if requesttype & 0x80 else (length if status == SUCCESS else 0)
        self.send(CONTROL_PACKET, struct.pack("<BBBBHHH", endpoint, request, requesttype, status,
                                              value, index, answered), reply, packet_id)

    # --- the usbredir connection

    async def read_packet(self, ids64):
        head = await self.qemu_in.readexactly(16 if ids64 else 12)
        kind, length, packet_id = struct.unpack("<IIQ" if ids64 else "<III", head)
        body = await self.qemu_in.readexactly(length)
        return kind, packet_id, body

    async def run(self):
        caps = struct.pack("<I", OUR_CAPS)
        self.send(HELLO, b"redir_acm (Meshport test radio)".ljust(64, b"\0"), caps, ids64=False)
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

    async def handle(self, kind, packet_id, body):
        if kind == CONTROL_PACKET:
            self.control(packet_id, body[:10], body[10:])
        elif kind == BULK_PACKET:
            size = 10 if self.both(CAP_32BITS_BULK_LENGTH) else 8
            endpoint, _, low, _ = struct.unpack_from("<BBHI", body)
            high = struct.unpack_from("<H", body, 8)[0] if size == 12 else 0
            await self.bulk(packet_id, endpoint, low | high << 16, body[size:])
        elif kind == CANCEL_DATA_PACKET:
            self.cancel(packet_id)
        elif kind == SET_CONFIGURATION:
            self.configuration = body[0] if body[0] in (0, 1) else self.configuration
            status = SUCCESS if body[0] in (0, 1) else STALL
            if status == SUCCESS:
                self.send_ep_info()
                self.send_interface_info()
            self.send(CONFIGURATION_STATUS, bytes([status, self.configuration]), packet_id=packet_id)
        elif kind == GET_CONFIGURATION:
            self.send(CONFIGURATION_STATUS, bytes([SUCCESS, self.configuration]), packet_id=packet_id)
        elif kind == SET_ALT_SETTING:
            interface, alt = body[0], body[1]
            status = SUCCESS if alt == 0 and interface < len(INTERFACES) else STALL
            if status == SUCCESS:
                self.send_ep_info()
                self.send_interface_info()
            self.send(ALT_SETTING_STATUS, bytes([status, interface, 0]), packet_id=packet_id)
        elif kind == GET_ALT_SETTING:
            self.send(ALT_SETTING_STATUS, bytes([SUCCESS, body[0], 0]), packet_id=packet_id)
        elif kind in (START_INTERRUPT_RECEIVING, STOP_INTERRUPT_RECEIVING):
            # Notifications (serial state) are never sent: the radio has no modem lines.
            status = SUCCESS if body[0] == EP_NOTIFY else INVAL
            self.send(INTERRUPT_RECEIVING_STATUS, bytes([status, body[0]]), packet_id=packet_id)
        elif kind == RESET:                # a port reset ends the device's transfers
            for packet_id, _ in self.pending_in:
                self.bulk_reply(packet_id, EP_DATA_IN, CANCELLED, length=0)
            self.pending_in.clear()
            self.configuration = 0
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
                reader, self.sim = await asyncio.open_connection("127.0.0.1", self.args.sim)
            except OSError:
                await asyncio.sleep(1)
                continue
            await self.disconnect_acked.wait()
            self.plug()
            await self.qemu_out.drain()
            try:
                while data := await reader.read(4096):
                    self.received += data
                    self.deliver()
                    await self.qemu_out.drain()
            except ConnectionError:
                pass
            self.sim.close()
            self.sim = None
            self.unplug()
            await self.qemu_out.drain()
            await asyncio.sleep(1)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sim", type=int, required=True, help="TCP port of the server")
    parser.add_argument("--id", default="303a:1001", help="VID:PID (hex)")
    parser.add_argument("--serial", default="TEST0001")
    parser.add_argument("--listen", type=int, default=0, help="port QEMU connects to (0: any)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    args.id = tuple(int(x, 16) for x in args.id.split(":"))

    async def connected(reader, writer):
        radio = Radio(args, reader, writer)
        try:
            await radio.run()
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            radio.log(f"QEMU connection ended: {error!r}")
        finally:
            if radio.sim is not None:
                radio.sim.close()
            writer.close()

    server = await asyncio.start_server(connected, "127.0.0.1", args.listen)
    port = server.sockets[0].getsockname()[1]
    print(f"redir_acm: listening on {port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
