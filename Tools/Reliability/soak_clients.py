"""The soak's clients of `meshport serve` (Tools/Reliability/soak.py): WebSocket event clients,
API readers paging a DM thread and searching, and an app on the companion port. Each counts
what it saw and keeps what went wrong, in sentences for the report."""
import asyncio
import http.client
import json
import random
import threading
import time
from urllib.parse import quote

from meshcore import EventType, MeshCore
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

READER_PAUSE = 0.1  # seconds between one reader's requests: a steady load, not a flood
COMPANION_EVERY = 5.0  # seconds between the companion client's rounds


class EventClient:
    """One client of /api/events: counts its events and the "chaos N" DMs among them."""

    def __init__(self, url):
        self.url = url
        self.events = 0
        self.dms = set()
        self.dropped = None  # why the server closed it, when it did
        self.socket = None
        self.closing = False

    async def open(self):
        # No pings of its own: only the server decides whether this client is too slow.
        self.socket = await connect(self.url, ping_interval=None, max_size=None)

    async def run(self):
        try:
            async for text in self.socket:
                self.events += 1
                event = json.loads(text)
                if event.get("type") == "message":
                    words = event["message"].get("text", "").split()
                    if len(words) == 2 and words[0] == "chaos":
                        self.dms.add(int(words[1]))
        except ConnectionClosed as closed:
            if not self.closing:
                self.dropped = f"closed by the server: {closed}"
            return
        if not self.closing:
            self.dropped = f"closed by the server (code {self.socket.close_code} {self.socket.close_reason!r})"

    async def close(self):
        self.closing = True
        await self.socket.close()


class ApiReader(threading.Thread):
    """A reader in a loop until STOP: walks the DM thread of KEY down with `before` cursors (1 to
    30 pages of 50), then searches for one DM due so far (DUE() says how many)."""

    def __init__(self, port, key, due, stop, seed):
        super().__init__(name=f"api-reader-{seed}", daemon=True)
        self.port, self.key, self.due, self.stop = port, key, due, stop
        self.random = random.Random(seed)
        self.connection = None
        self.latencies = []  # seconds, one per answered request
        self.server_errors = []
        self.failures = []  # no answer, or an answer other than 200 and 5xx
        self.pages = 0
        self.searches = 0
        self.repeats = 0  # messages seen twice in one walk

    def get(self, path):
        """The JSON body of a 200 answer; None otherwise (and what went wrong is kept)."""
        started = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.connection.request("GET", path)
            answer = self.connection.getresponse()
            body = answer.read()
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            self.connection = None
            self.failures.append(f"GET {path}: no answer ({error!r})")
            return None
        self.latencies.append(time.monotonic() - started)
        if answer.status >= 500:
            self.server_errors.append(f"GET {path}: {answer.status} {body[:200]!r}")
        elif answer.status != 200:
            self.failures.append(f"GET {path}: {answer.status} {body[:200]!r}")
        else:
            try:
                return json.loads(body)
            except ValueError as error:
                self.failures.append(f"GET {path}: 200 with a body that is not JSON ({error})")
        return None

    def walk(self):
        before, seen = None, set()
        for _ in range(self.random.randint(1, 30)):
            cursor = f"&before={quote(before)}" if before else ""
            page = self.get(f"/api/radios/0/contacts/{self.key}/messages?limit=50{cursor}")
            if page is None:
                return
            self.pages += 1
            ids = [message["id"] for message in page["messages"]]
            self.repeats += len(seen.intersection(ids))
            seen.update(ids)
            before = page.get("older")
            if not before or self.stop.wait(READER_PAUSE):
                return

    def search(self):
        query = f"chaos {self.random.randrange(max(1, self.due()))}"
        self.get(f"/api/radios/0/search?q={quote(query)}&limit=20")
        self.searches += 1

    def run(self):
        try:
            while not self.stop.is_set():
                self.walk()
                if self.stop.wait(READER_PAUSE):
                    break
                self.search()
                self.stop.wait(READER_PAUSE)
        except Exception as error:  # kept for the report, which fails on it
            self.failures.append(f"the reader stopped: {error!r}")
        if self.connection is not None:
            self.connection.close()


class CompanionClient:
    """An app on serve's companion port (the reference client, meshcore_py): the device info and
    the contacts (which must hold SENDER) every COMPANION_EVERY seconds."""

    def __init__(self, address, sender):
        host, _, port = address.removeprefix("tcp://").rpartition(":")
        self.host, self.port, self.sender = host, int(port), sender
        self.rounds = 0
        self.failures = []

    async def run(self, stop):
        app = await MeshCore.create_tcp(self.host, self.port, default_timeout=10)
        if app is None:
            self.failures.append(f"no answer to APP_START on {self.host}:{self.port}")
            return
        try:
            while not stop.is_set():
                info = await app.commands.send_device_query()
                if info.type != EventType.DEVICE_INFO:
                    self.failures.append(f"round {self.rounds + 1}: the device query answered {info.type}: {info.payload}")
                contacts = await app.commands.get_contacts(timeout=10)
                if contacts.type != EventType.CONTACTS:
                    self.failures.append(f"round {self.rounds + 1}: the contacts answered {contacts.type}: {contacts.payload}")
                elif not any(c.get("adv_name") == self.sender for c in contacts.payload.values()):
                    self.failures.append(f"round {self.rounds + 1}: the contacts lack {self.sender}")
                self.rounds += 1
                try:
                    await asyncio.wait_for(stop.wait(), COMPANION_EVERY)
                except TimeoutError:
                    pass
        finally:
            await app.disconnect()
