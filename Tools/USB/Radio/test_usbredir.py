"""The radio models' usbredir side against a scripted QEMU over real sockets: the handshake,
enumeration requests, bulk data both ways, one reply per request (cancels, resets, unplugs),
and a CP2102 passing data only while enabled.

    python3 -m unittest discover -s Tools/USB/Radio -p 'test_*.py'
"""
import asyncio
import struct
import unittest

import usbredir as r
from cdc_acm import CDCACM
from cp210x import CP210x
from device import TYPE_BULK, TYPE_INTERRUPT

QEMU_CAPS = 0xFF          # what QEMU 7.2 announces


class Guest:
    """QEMU's side of one connection: 64-bit ids after the hellos, as both sides announce."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    def send(self, kind, header=b"", data=b"", packet_id=0, ids64=True):
        fmt = "<IIQ" if ids64 else "<III"
        self.writer.write(struct.pack(fmt, kind, len(header) + len(data), packet_id) + header + data)

    async def read(self, ids64=True):
        head = await asyncio.wait_for(self.reader.readexactly(16 if ids64 else 12), 5)
        kind, length, packet_id = struct.unpack("<IIQ" if ids64 else "<III", head)
        return kind, packet_id, await self.reader.readexactly(length)

    async def expect(self, kind):
        got, packet_id, body = await self.read()
        if got != kind:
            raise AssertionError(f"expected packet type {kind}, got {got} ({body!r})")
        return packet_id, body

    async def nothing(self, seconds=0.2):
        """No packet arrives for a while."""
        try:
            packet = await asyncio.wait_for(self.read(), seconds)
        except asyncio.TimeoutError:
            return
        raise AssertionError(f"unexpected packet {packet!r}")

    def control(self, packet_id, request, requesttype, value, index, length, data=b""):
        header = struct.pack("<BBBBHHH", requesttype & 0x80, request, requesttype, 0, value, index, length)
        self.send(r.CONTROL_PACKET, header, data, packet_id)

    def bulk(self, packet_id, endpoint, length, data=b""):
        self.send(r.BULK_PACKET, struct.pack("<BBHIH", endpoint, 0, length & 0xFFFF, 0, length >> 16),
                  data, packet_id)

    async def bulk_reply(self, packet_id):
        got_id, body = await self.expect(r.BULK_PACKET)
        endpoint, status, low, _, high = struct.unpack_from("<BBHIH", body)
        assert got_id == packet_id, f"reply for {got_id}, expected {packet_id}"
        return endpoint, status, low | high << 16, body[10:]


class SessionTests(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.server_links = asyncio.Queue()          # (reader, writer) per link the radio opens

        async def accepted(reader, writer):
            await self.server_links.put((reader, writer))
        self.server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        self.logs = []

    async def asyncTearDown(self):
        self.server.close()
        await self.server.wait_closed()

    async def start(self, chip=CDCACM):
        """A session on a real socket pair, past the hellos and the first plug-in."""
        port = self.server.sockets[0].getsockname()[1]
        listener = await asyncio.start_server(self._radio_side(chip, port), "127.0.0.1", 0)
        self.addAsyncCleanup(self._close, listener)
        reader, writer = await asyncio.open_connection("127.0.0.1", listener.sockets[0].getsockname()[1])
        guest = Guest(reader, writer)
        self.addAsyncCleanup(self._close_writer, writer)
        kind, _, body = await guest.read(ids64=False)
        self.assertEqual(kind, r.HELLO)
        self.assertEqual(struct.unpack_from("<I", body, 64)[0], r.OUR_CAPS)
        guest.send(r.HELLO, b"test guest".ljust(64, b"\0"), struct.pack("<I", QEMU_CAPS), ids64=False)
        self.link = await asyncio.wait_for(self.server_links.get(), 5)
        _, ep_info = await guest.expect(r.EP_INFO)
        self.assertEqual(len(ep_info), 32 * 3 + 64)               # with max packet sizes
        await guest.expect(r.INTERFACE_INFO)
        _, connect = await guest.expect(r.DEVICE_CONNECT)
        self.assertEqual(struct.unpack("<BBBBHHH", connect)[4:6], (chip.vid, chip.pid))
        return guest

    def _radio_side(self, chip, port):
        def connected(reader, writer):
            return r.serve(chip("TEST0001", self.logs.append), port, reader, writer, self.logs.append)
        return connected

    async def _close(self, server):
        server.close()
        await server.wait_closed()

    async def _close_writer(self, writer):
        writer.close()

    async def configure(self, guest):
        guest.send(r.SET_CONFIGURATION, bytes([1]), packet_id=7)
        _, ep_info = await guest.expect(r.EP_INFO)
        _, interfaces = await guest.expect(r.INTERFACE_INFO)
        packet_id, status = await guest.expect(r.CONFIGURATION_STATUS)
        self.assertEqual((packet_id, status), (7, bytes([r.SUCCESS, 1])))
        return ep_info, interfaces

    async def test_enumeration(self):
        guest = await self.start()
        guest.control(1, 6, 0x80, 0x0100, 0, 64)                 # GET_DESCRIPTOR device
        packet_id, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual(packet_id, 1)
        self.assertEqual(body[3], r.SUCCESS)
        self.assertEqual(struct.unpack_from("<H", body, 8)[0], 18)
        self.assertEqual(body[10:12], b"\x12\x01")
        guest.control(2, 6, 0x80, 0x0200, 0, 9)                  # the configuration's head only
        _, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual(len(body) - 10, 9)
        guest.control(3, 6, 0x80, 0x0600, 0, 10)                 # device qualifier: full speed
        _, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual((body[3], len(body)), (r.STALL, 10))
        ep_info, interfaces = await self.configure(guest)
        types = ep_info[:32]
        self.assertEqual((types[0x01], types[16 + 0x01], types[16 + 0x02]), (TYPE_BULK, TYPE_BULK, TYPE_INTERRUPT))
        self.assertEqual(struct.unpack_from("<I", interfaces)[0], 3)
        line = struct.pack("<IBBB", 9600, 0, 0, 8)
        guest.control(4, 0x20, 0x21, 0, 0, 7, line)              # SET_LINE_CODING
        _, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual((body[3], struct.unpack_from("<H", body, 8)[0], len(body)), (r.SUCCESS, 7, 10))
        guest.control(5, 0x21, 0xA1, 0, 0, 7)                    # GET_LINE_CODING
        _, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual(body[10:], line)

    async def test_bulk_both_ways(self):
        guest = await self.start()
        await self.configure(guest)
        server_reader, server_writer = self.link
        guest.bulk(10, CDCACM.data_in, 64)                         # held: nothing to read yet
        guest.bulk(11, CDCACM.data_in, 64)
        await guest.nothing()
        server_writer.write(bytes(range(100)))
        await server_writer.drain()
        self.assertEqual(await guest.bulk_reply(10), (CDCACM.data_in, r.SUCCESS, 64, bytes(range(64))))
        self.assertEqual(await guest.bulk_reply(11), (CDCACM.data_in, r.SUCCESS, 36, bytes(range(64, 100))))
        guest.bulk(12, CDCACM.data_out, 5, b"hello")
        self.assertEqual(await guest.bulk_reply(12), (CDCACM.data_out, r.SUCCESS, 5, b""))
        self.assertEqual(await asyncio.wait_for(server_reader.readexactly(5), 5), b"hello")
        guest.bulk(13, 0x83, 64)                                   # the vendor interface
        self.assertEqual((await guest.bulk_reply(13))[1], r.STALL)

    async def test_one_reply_per_request(self):
        guest = await self.start()
        await self.configure(guest)
        guest.bulk(20, CDCACM.data_in, 64)
        guest.bulk(21, CDCACM.data_in, 64)
        guest.send(r.CANCEL_DATA_PACKET, packet_id=21)
        self.assertEqual((await guest.bulk_reply(21))[1], r.CANCELLED)
        guest.send(r.CANCEL_DATA_PACKET, packet_id=99)             # unknown: no reply
        await guest.nothing()
        guest.send(r.RESET)                                        # ends what was pending
        self.assertEqual((await guest.bulk_reply(20))[1], r.CANCELLED)
        await guest.nothing()

    async def test_unplug_when_the_server_drops(self):
        guest = await self.start()
        await self.configure(guest)
        guest.bulk(30, CDCACM.data_in, 64)
        await guest.nothing(0.1)
        _, server_writer = self.link
        server_writer.close()
        await guest.expect(r.DEVICE_DISCONNECT)
        guest.send(r.CANCEL_DATA_PACKET, packet_id=30)             # QEMU cancels, then acks
        self.assertEqual((await guest.bulk_reply(30))[1], r.CANCELLED)
        guest.send(r.DEVICE_DISCONNECT_ACK)
        await asyncio.wait_for(self.server_links.get(), 5)        # relinked after a second
        await guest.expect(r.EP_INFO)
        await guest.expect(r.INTERFACE_INFO)
        await guest.expect(r.DEVICE_CONNECT)

    async def test_cp2102_passes_data_only_while_enabled(self):
        guest = await self.start(CP210x)
        await self.configure(guest)
        server_reader, server_writer = self.link
        guest.bulk(40, CP210x.data_out, 3, b"off")
        self.assertEqual((await guest.bulk_reply(40))[1], r.SUCCESS)
        server_writer.write(b"dropped")
        await server_writer.drain()
        guest.control(41, 0x00, 0x41, 1, 0, 0)                   # IFC_ENABLE
        _, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual(body[3], r.SUCCESS)
        guest.bulk(42, CP210x.data_out, 2, b"on")
        await guest.bulk_reply(42)
        self.assertEqual(await asyncio.wait_for(server_reader.readexactly(2), 5), b"on")
        guest.bulk(43, CP210x.data_in, 64)
        server_writer.write(b"kept")
        await server_writer.drain()
        self.assertEqual((await guest.bulk_reply(43))[3], b"kept")
        guest.control(44, 0xFF, 0xC0, 0x370B, 0, 1)               # GET_PARTNUM: a CP2102
        _, body = await guest.expect(r.CONTROL_PACKET)
        self.assertEqual(body[10:], b"\x02")


if __name__ == "__main__":
    unittest.main()
