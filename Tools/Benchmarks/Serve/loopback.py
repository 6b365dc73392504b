"""Minimal loopback HTTP/1.1 and WebSocket clients for the serve benchmarks: raw asyncio
streams, keep-alive, no library in the measured path, so the client costs little next to the
server it measures."""
import asyncio
import base64
import os
import re
import time


class HTTPConnection:
    def __init__(self, port):
        self.port = port
        self.reader = None
        self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self

    async def get(self, path):
        """GET on the kept-alive connection: (status, body bytes)."""
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        body = await self.reader.readexactly(length) if length else b""
        return status, body

    def close(self):
        if self.writer:
            self.writer.close()


class EventClient:
    """One /api/events WebSocket: counts `test` events and when each arrived."""

    def __init__(self, port):
        self.port = port
        self.arrivals = {}  # event number -> monotonic time
        self.order_ok = True
        self.last = -1
        self.closed_by_server = False
        self.closing = False

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write((f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"WebSocket upgrade refused: {head[:80]!r}")
        return self

    # Events are JSON with sorted keys: a test event ends ..."text":"N","type":"test"}. Scanning
    # the byte stream with one regex (C speed) instead of parsing each frame in Python keeps the
    # client far below the server's cost; a frame split across reads is kept for the next one.
    TEST_EVENT = re.compile(rb'"text":"(\d+)","type":"test"')

    async def run(self):
        """Reads until the server closes the connection (or this client does)."""
        pending = b""
        while True:
            chunk = await self.reader.read(1 << 18)
            if not chunk:
                self.closed_by_server = not self.closing
                return
            now = time.monotonic()
            data = pending + chunk
            end = 0
            for match in self.TEST_EVENT.finditer(data):
                n = int(match.group(1))
                if n != self.last + 1:
                    self.order_ok = False
                self.last = n
                self.arrivals[n] = now
                end = match.end()
            pending = data[max(end, len(data) - 64):]

    def close(self):
        self.closing = True
        self.writer.close()


async def post_json(port, path, body):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = body.encode()
    writer.write((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode() + data)
    answer = await reader.read()
    writer.close()
    return int(answer[9:12])
