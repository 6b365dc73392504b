#!/usr/bin/env python3
"""The reference Python client meshcore_py (PyPI `meshcore`, pinned in Tools/requirements.txt)
against MeshSim (`meshport sim`), over TCP or a serial port (the sim's pty).

Usage:
    .venv/bin/python Tools/Interop/sim_interop.py --tcp 127.0.0.1:PORT [--min-contacts N]
    .venv/bin/python Tools/Interop/sim_interop.py --serial /dev/pts/N [--min-contacts N]
Options: --debug (meshcore_py debug logging on stderr), --only NAME[,NAME...] (run some checks;
connect always runs).

Every check is named and asserts on the events meshcore_py yields (and, where the protocol fixes
it, on the length of the frame behind them). Each has its own time limit, so the script always
ends; a failing check does not stop the others, except connect (the rest are then reported as
not run). Output: "PASS name" or "FAIL name: reason" per check — a failure is followed by the
frames of that check, indented ("tx" = sent, "rx" = received, with the events meshcore_py made of
them) — "NOTE ..." lines for what meshcore_py logged, then exactly one line "N passed, M failed".
Exit status 0 when M == 0, 1 otherwise, 2 on bad usage.

Nothing is changed in meshcore_py: the script observes it by wrapping MessageReader.handle_rx,
EventDispatcher.dispatch and the connections' send (to record frames and events), and reads its
log. One adaptation for ptys (serial mode only): a pseudo-terminal has no modem-control lines,
so pyserial's DTR/RTS ioctls fail with ENOTTY there; meshcore_py sets DTR and RTS unconditionally
once the port is open and would never connect. The script makes those two pyserial calls ignore ENOTTY /
EINVAL exactly as pyserial's own open() does, and says so in a NOTE line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import errno
import hashlib
import logging
import math
import sys
import time
from importlib import metadata
from typing import Any, Awaitable, Callable, Dict, List, Optional

from meshcore import EventType, MeshCore
from meshcore.events import Event, EventDispatcher
from meshcore.reader import MessageReader
from meshcore.serial_cx import SerialConnection
from meshcore.tcp_cx import TCPConnection

TESTED_VERSION = "2.3.17"
COMMAND_TIMEOUT = 3.0          # MeshCore(default_timeout=...): one command's answer
PUBLIC_SECRET = "8b3387e9c5cdea6ac9e5edbaa115cd72"   # channel 0 "Public" (Docs/protocol.md §7.6)
ILLEGAL_ARG = 6
FIRMWARE_VERSION = "v1.17.1"
FIRMWARE_VER_CODE = 13
REPEATER, ROOM = "Repeater North", "Town Square"


class CheckFailed(Exception):
    pass


def need(condition: Any, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


# ---------------------------------------------------------------------------------------------
# Recording what meshcore_py sends, receives and makes of it


_current_frame: contextvars.ContextVar[Optional[dict]] = contextvars.ContextVar("frame", default=None)


class Recorder:
    """Every frame sent and received, in order, with the events meshcore_py made of each
    received frame; every dispatched event; what meshcore_py and asyncio logged."""

    def __init__(self) -> None:
        self.log: List[dict] = []            # {"dir": "tx"|"rx", "data": bytes, "events": [Event]}
        self.events: List[Event] = []
        self.logged: List[str] = []          # warnings and errors, formatted

    def install(self) -> None:
        rec = self
        orig_rx = MessageReader.handle_rx

        async def handle_rx(reader, data):
            entry = {"dir": "rx", "data": bytes(data), "events": []}
            rec.log.append(entry)
            token = _current_frame.set(entry)
            try:
                await orig_rx(reader, data)
            finally:
                _current_frame.reset(token)

        MessageReader.handle_rx = handle_rx

        orig_dispatch = EventDispatcher.dispatch

        async def dispatch(dispatcher, event):
            entry = _current_frame.get()
            if entry is not None:
                entry["events"].append(event)
            rec.events.append(event)
            await orig_dispatch(dispatcher, event)

        EventDispatcher.dispatch = dispatch

        for cls in (TCPConnection, SerialConnection):
            def wrap(orig):
                async def send(cx, data):
                    rec.log.append({"dir": "tx", "data": bytes(data), "events": []})
                    return await orig(cx, data)
                return send
            cls.send = wrap(cls.send)

        class Capture(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                text = record.getMessage()
                # Advice meshcore_py prints when the deprecated calls are used on purpose.
                if text.startswith("*** please consider"):
                    return
                first = text.splitlines()[0] if text else ""
                rec.logged.append(f"{record.name} {record.levelname}: {first}")

        handler = Capture(level=logging.WARNING)
        for name in ("meshcore", "asyncio"):
            logging.getLogger(name).addHandler(handler)

    def mark(self) -> tuple:
        return (len(self.log), len(self.events))

    def frames_since(self, mark: tuple, code: Optional[int] = None) -> List[bytes]:
        return [e["data"] for e in self.log[mark[0]:]
                if e["dir"] == "rx" and e["data"] and (code is None or e["data"][0] == code)]

    def events_since(self, mark: tuple, etype: Optional[EventType] = None) -> List[Event]:
        return [e for e in self.events[mark[1]:] if etype is None or e.type == etype]

    async def wait_event(self, mark: tuple, predicate: Callable[[Event], bool], timeout: float) -> Optional[Event]:
        """The first event since `mark` that satisfies `predicate`, waiting up to `timeout` s."""
        deadline = time.monotonic() + timeout
        i = mark[1]
        while True:
            while i < len(self.events):
                if predicate(self.events[i]):
                    return self.events[i]
                i += 1
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(0.02)

    def evidence(self, mark: tuple, limit: int = 6) -> List[str]:
        """The check's frames (the last `limit`), each received one with its events."""
        entries = self.log[mark[0]:]
        lines = []
        if len(entries) > limit:
            lines.append(f"... {len(entries) - limit} earlier frames of this check not shown")
            entries = entries[-limit:]
        for e in entries:
            line = f"{e['dir']} {e['data'].hex()}"
            if e["dir"] == "rx":
                line += " -> " + ("; ".join(show(ev, 200) for ev in e["events"]) or "no event")
            lines.append(line)
        return lines


def plain(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def show(event: Optional[Event], limit: int = 300) -> str:
    if event is None:
        return "nothing"
    text = f"{event.type.name} {plain(event.payload)}"
    return text if len(text) <= limit else text[:limit] + "..."


def expect(event: Event, etype: EventType, what: str) -> Event:
    """`event` must be of type `etype`; otherwise fail naming what came instead."""
    need(event is not None and event.type == etype, f"{what}: expected {etype.name}, got {show(event)}")
    return event


def frame_len(frames: List[bytes], code: int, expected: int, what: str) -> None:
    need(frames, f"no 0x{code:02x} frame was received for {what}")
    need(len(frames[-1]) == expected, f"{what}: 0x{code:02x} frame is {len(frames[-1])} bytes, expected {expected}: {frames[-1].hex()}")


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-6)


async def eventually(condition: Callable[[], bool], timeout: float = 1.0) -> bool:
    """MeshCore updates its state (.contacts, .self_info, .time) in callback tasks of its own,
    a moment after the command that caused it has returned."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.02)
    return True


# ---------------------------------------------------------------------------------------------
# The checks


class Session:
    def __init__(self, args: argparse.Namespace, rec: Recorder) -> None:
        self.args = args
        self.rec = rec
        self.mc: Optional[MeshCore] = None
        self.device: Dict[str, Any] = {}
        self.contacts: Dict[str, dict] = {}
        self.dm_senders: List[str] = []       # pubkey prefixes (hex) of queued DMs, in order

    @property
    def cmd(self):
        return self.mc.commands

    def contact_named(self, name: str) -> dict:
        for c in self.contacts.values():
            if c.get("adv_name") == name:
                return c
        raise CheckFailed(f"no contact named {name!r} among the {len(self.contacts)} contacts loaded")

    def contact_by_prefix(self, prefix: str) -> Optional[dict]:
        for key, c in self.contacts.items():
            if key.startswith(prefix):
                return c
        return None

    # -- connection and identity ---------------------------------------------------------------

    async def connect(self) -> None:
        mark = self.rec.mark()
        if self.args.tcp:
            host, port = self.args.tcp
            mc = await MeshCore.create_tcp(host, port, default_timeout=COMMAND_TIMEOUT)
        else:
            mc = await MeshCore.create_serial(self.args.serial, default_timeout=COMMAND_TIMEOUT)
        need(mc is not None, "create_* returned None: APP_START got no SELF_INFO")
        self.mc = mc
        expect(next(iter(self.rec.events_since(mark, EventType.SELF_INFO)), None), EventType.SELF_INFO, "APP_START")
        need(mc.self_info, "SELF_INFO arrived but MeshCore.self_info is empty")

    async def self_info(self) -> None:
        si = self.mc.self_info
        frames = self.rec.frames_since((0, 0), 0x05)
        need(len(si.get("public_key", "")) == 64, f"public_key is not 32 bytes: {si.get('public_key')!r}")
        need(si["public_key"].strip("0"), "public_key is all zeros")
        name = si.get("name", "")
        need(name, f"empty name: {si!r}")
        need(len(name.encode()) <= 31, f"name longer than 31 bytes: {name!r}")
        frame_len(frames, 0x05, 58 + len(name.encode()), "SELF_INFO (58 + name bytes)")
        need(si["adv_type"] == 1, f"adv_type {si['adv_type']}, expected 1 (chat)")
        need(si["tx_power"] <= si["max_tx_power"], f"tx_power {si['tx_power']} > max_tx_power {si['max_tx_power']}")
        need(150 <= si["radio_freq"] <= 2500, f"radio_freq {si['radio_freq']} MHz out of range")
        need(7 <= si["radio_bw"] <= 500, f"radio_bw {si['radio_bw']} kHz out of range")
        need(5 <= si["radio_sf"] <= 12 and 5 <= si["radio_cr"] <= 8, f"sf {si['radio_sf']} / cr {si['radio_cr']} out of range")
        need(-90 <= si["adv_lat"] <= 90 and -180 <= si["adv_lon"] <= 180, f"position {si['adv_lat']}, {si['adv_lon']} out of range")

    async def device_query(self) -> None:
        mark = self.rec.mark()
        ev = expect(await self.cmd.send_device_query(), EventType.DEVICE_INFO, "DEVICE_QUERY")
        d = ev.payload
        self.device = d
        need(d.get("fw ver") == FIRMWARE_VER_CODE, f"fw ver {d.get('fw ver')}, expected {FIRMWARE_VER_CODE}")
        need(d.get("ver") == FIRMWARE_VERSION, f"ver {d.get('ver')!r}, expected {FIRMWARE_VERSION!r}")
        need(d.get("fw_build") and d.get("model"), f"empty fw_build or model: {d}")
        need(d.get("max_channels", 0) >= 1, f"max_channels {d.get('max_channels')}")
        need(d.get("path_hash_mode") in (0, 1, 2), f"path_hash_mode {d.get('path_hash_mode')}")
        need("repeat" in d, f"no repeat flag: {d}")
        frame_len(self.rec.frames_since(mark, 0x0D), 0x0D, 82, "DEVICE_INFO")
        need(d.get("max_contacts", 0) >= self.args.min_contacts,
             f"max_contacts {d.get('max_contacts')} < --min-contacts {self.args.min_contacts}")

    # -- contacts ----------------------------------------------------------------------------

    async def contacts(self) -> None:
        mark = self.rec.mark()
        ev = await self.cmd.get_contacts(timeout=5)
        # Whatever arrived, even if the stream failed, so later checks can find their contacts.
        self.contacts = {e.payload["public_key"]: e.payload for e in self.rec.events_since(mark, EventType.NEXT_CONTACT)}
        expect(ev, EventType.CONTACTS, "GET_CONTACTS")
        starts = self.rec.frames_since(mark, 0x02)
        need(starts, "no CONTACTS_START (0x02) frame before END_OF_CONTACTS")
        need(len(starts[-1]) == 5, f"CONTACTS_START is {len(starts[-1])} bytes: {starts[-1].hex()}")
        announced = int.from_bytes(starts[-1][1:5], "little")
        records = self.rec.frames_since(mark, 0x03)
        got = ev.payload
        need(len(records) == announced,
             f"CONTACTS_START announced {announced}, {len(records)} CONTACT frames followed")
        need(len(got) == announced, f"CONTACTS event holds {len(got)} contacts, CONTACTS_START announced {announced} (duplicate keys?)")
        bad = [r for r in records if len(r) != 148]
        need(not bad, f"{len(bad)} CONTACT frames are not 148 bytes, e.g. {len(bad[0]) if bad else 0} bytes: {bad[0].hex() if bad else ''}")
        if self.device.get("max_contacts"):
            need(len(got) <= self.device["max_contacts"], f"{len(got)} contacts > max_contacts {self.device['max_contacts']}")
        max_lastmod = 0
        for key, c in got.items():
            need(len(key) == 64 and c["public_key"] == key, f"bad public key {key!r}")
            need(c["adv_name"], f"contact {key[:12]} has an empty name")
            need(c["type"] in (1, 2, 3, 4), f"contact {c['adv_name']!r} has type {c['type']}")
            if c["out_path_len"] >= 0:
                need(len(c["out_path"]) == 2 * c["out_path_len"] * (c["out_path_hash_mode"] + 1),
                     f"contact {c['adv_name']!r}: out_path {c['out_path']!r} does not match out_path_len {c['out_path_len']}")
            need(-90 <= c["adv_lat"] <= 90 and -180 <= c["adv_lon"] <= 180, f"contact {c['adv_name']!r} position out of range")
            max_lastmod = max(max_lastmod, c["lastmod"])
        need(ev.attributes.get("lastmod") == max_lastmod,
             f"END_OF_CONTACTS lastmod {ev.attributes.get('lastmod')}, highest contact lastmod {max_lastmod}")
        for name, kind in ((REPEATER, 2), ("Repeater South", 2), (ROOM, 3)):
            c = self.contact_named(name)
            need(c["type"] == kind, f"{name!r} has type {c['type']}, expected {kind}")
        need(await eventually(lambda: len(self.mc.contacts) >= len(got)),
             f"MeshCore.contacts holds {len(self.mc.contacts)} after the CONTACTS event")
        need(len(got) >= self.args.min_contacts, f"{len(got)} contacts < --min-contacts {self.args.min_contacts}")

    # -- the message queue -------------------------------------------------------------------

    async def messages(self) -> None:
        dms, chans = [], []
        for _ in range(300):
            ev = await self.cmd.get_msg(timeout=COMMAND_TIMEOUT)
            if ev.type == EventType.NO_MORE_MSGS:
                break
            need(ev.type in (EventType.CONTACT_MSG_RECV, EventType.CHANNEL_MSG_RECV),
                 f"SYNC_NEXT_MESSAGE #{len(dms) + len(chans) + 1}: got {show(ev)}")
            (dms if ev.type == EventType.CONTACT_MSG_RECV else chans).append(ev.payload)
        else:
            raise CheckFailed("no NO_MORE_MESSAGES after 300 messages")
        for m in dms:
            if m["pubkey_prefix"] not in self.dm_senders:
                self.dm_senders.append(m["pubkey_prefix"])
        need(len(dms) >= 3, f"{len(dms)} DMs drained, expected at least the 3 queued at boot")
        need(len(chans) >= 4, f"{len(chans)} channel messages drained, expected at least the 4 queued at boot")
        need(self.contacts, "the contacts are not loaded (the contacts check failed or did not run)")
        for m in dms:
            c = self.contact_by_prefix(m["pubkey_prefix"])
            need(c is not None, f"DM from {m['pubkey_prefix']}, which is no contact's key prefix: {m}")
            need(m["text"] and m["txt_type"] == 0, f"DM with empty text or txt_type {m['txt_type']}: {m}")
            need(m["sender_timestamp"] > 1_600_000_000, f"DM sender_timestamp {m['sender_timestamp']}: {m}")
        on_public = [m for m in chans if m["channel_idx"] == 0]
        need(len(on_public) >= 4, f"{len(on_public)} channel messages on channel 0: {chans}")
        for m in chans:
            need(": " in m["text"] and m["txt_type"] == 0, f"channel message not '<name>: <text>' or txt_type {m['txt_type']}: {m}")
            need(m["sender_timestamp"] > 1_600_000_000, f"channel message sender_timestamp {m['sender_timestamp']}: {m}")

    # -- channels ----------------------------------------------------------------------------

    async def channel_get(self) -> None:
        mark = self.rec.mark()
        p = expect(await self.cmd.get_channel(0), EventType.CHANNEL_INFO, "GET_CHANNEL 0").payload
        need(p["channel_idx"] == 0, f"channel_idx {p['channel_idx']}")
        need(p["channel_name"] == "Public", f"channel 0 is named {p['channel_name']!r}, expected 'Public'")
        need(p["channel_secret"].hex() == PUBLIC_SECRET, f"channel 0 secret {p['channel_secret'].hex()}, expected {PUBLIC_SECRET}")
        need(p["channel_hash"] == "11", f"channel 0 hash {p['channel_hash']}, expected 11")
        frame_len(self.rec.frames_since(mark, 0x12), 0x12, 50, "CHANNEL_INFO")

    async def channel_set(self) -> None:
        hashtag = "#meshport-interop"
        private_secret = bytes(range(0xA0, 0xB0))
        for idx, name, secret, expected_secret in (
            (1, hashtag, None, hashlib.sha256(hashtag.encode()).digest()[:16]),
            (2, "Interop Private", private_secret, private_secret),
        ):
            expect(await self.cmd.set_channel(idx, name, secret), EventType.OK, f"SET_CHANNEL {idx} {name!r}")
            p = expect(await self.cmd.get_channel(idx), EventType.CHANNEL_INFO, f"GET_CHANNEL {idx}").payload
            need(p["channel_idx"] == idx and p["channel_name"] == name and p["channel_secret"] == expected_secret,
                 f"GET_CHANNEL {idx} after SET_CHANNEL {name!r} returned {plain(p)}")
        p = expect(await self.cmd.get_channel(0), EventType.CHANNEL_INFO, "GET_CHANNEL 0").payload
        need(p["channel_name"] == "Public", f"channel 0 changed to {plain(p)}")

    async def channel_echoes(self) -> None:
        """A Public message is heard again as neighbouring repeaters pass it on: RX_LOG_DATA
        frames meshcore_py decodes as one-hop GRP_TXT packets on "Public" and decrypts to
        the text sent (its "channel echoes")."""
        self.mc.set_decrypt_channel_logs(True)
        expect(await self.cmd.get_channel(0), EventType.CHANNEL_INFO, "GET_CHANNEL 0")   # the parser learns the secret
        text = f"meshport echo {int(time.time())}"
        mark = self.rec.mark()
        expect(await self.cmd.send_chan_msg(0, text), EventType.OK, "SEND_CHANNEL_TXT_MSG")
        line = f"{self.mc.self_info['name']}: {text}"
        ours = lambda e: e.type == EventType.RX_LOG_DATA and e.payload.get("payload_typename") == "GRP_TXT" and e.payload.get("message") == line
        got = await self.rec.wait_event(mark, ours, 6)
        if got is None:
            logs = [show(e, 160) for e in self.rec.events_since(mark, EventType.RX_LOG_DATA)]
            raise CheckFailed(f"no echo of {line!r} decoded within 6 s; RX_LOG_DATA seen: {logs or 'none'}")
        p = got.payload
        need(p.get("chan_name") == "Public" and p["route_typename"] == "FLOOD" and p["path_len"] == 1,
             f"echo not a one-hop flood on Public: {plain(p)}")
        need(p.get("txt_type") == 0 and p.get("attempt") == 0, f"echo's flags: {plain(p)}")

    # -- direct messages ---------------------------------------------------------------------

    def dm_targets(self) -> List[Any]:
        """Nodes that sent us a DM (so certainly simulated nodes), as contact dicts when the
        contacts are known, else as key prefixes; without any, the chat contacts."""
        candidates = [self.contact_by_prefix(p) or p for p in self.dm_senders]
        if not candidates:
            candidates = [c for c in self.contacts.values() if c["type"] == 1]
        need(candidates, "no DM sender and no chat contact to message")
        return candidates

    async def send_and_ack(self, target: Any, text: str) -> None:
        mark = self.rec.mark()
        ev = expect(await self.cmd.send_msg(target, text), EventType.MSG_SENT, "SEND_TXT_MSG")
        ack = ev.payload["expected_ack"]
        timeout_ms = ev.payload["suggested_timeout"]
        frame_len(self.rec.frames_since(mark, 0x06), 0x06, 10, "SENT")
        need(isinstance(ack, bytes) and len(ack) == 4 and ack != b"\0\0\0\0", f"expected_ack {plain(ack)}")
        need(ev.payload["type"] in (0, 1), f"SENT route flag {ev.payload['type']}")
        need(0 < timeout_ms <= 60_000, f"suggested_timeout {timeout_ms} ms")
        wait = timeout_ms / 1000 * 1.2          # what send_msg_with_retry allows
        got = await self.rec.wait_event(mark, lambda e: e.type == EventType.ACK and e.attributes.get("code") == ack.hex(), wait)
        if got is None:
            other = self.rec.events_since(mark, EventType.ACK)
            raise CheckFailed(f"no ACK with code {ack.hex()} within {wait:.1f} s (suggested_timeout {timeout_ms} ms x 1.2)"
                              + (f"; other ACKs: {[show(a) for a in other]}" if other else ""))
        frame_len(self.rec.frames_since(mark, 0x82), 0x82, 9, "SEND_CONFIRMED")
        # The packet that carried the ACK was logged as heard first: an ACK (direct) holding
        # the code, or a sealed path-return (flood).
        heard = [e.payload for e in self.rec.events_since(mark, EventType.RX_LOG_DATA)
                 if e.payload.get("payload_typename") == "ACK" and e.payload.get("pkt_payload") == ack
                 or e.payload.get("payload_typename") == "PATH"]
        need(heard, "SEND_CONFIRMED without the ACK or path-return packet in the RX log")
        need("trip_time" in got.payload and got.payload["trip_time"] <= timeout_ms * 1.2,
             f"ACK trip_time {got.payload.get('trip_time')} ms vs suggested {timeout_ms} ms")

    async def dm_ack(self) -> None:
        await self.send_and_ack(self.dm_targets()[0], f"meshport interop {int(time.time())}")

    async def dm_flood_path(self) -> None:
        """RESET_PATH, then send_msg_with_retry: the DM goes flood and is acknowledged, the
        path-return pushes PATH_UPDATED and the contact has a path again (Docs/protocol.md §11)."""
        candidates = [c for c in self.dm_targets() if isinstance(c, dict)]
        need(candidates, "no contact record for any DM sender (contacts not loaded)")
        target = candidates[1] if len(candidates) > 1 else candidates[0]
        key = target["public_key"]
        expect(await self.cmd.reset_path(key), EventType.OK, "RESET_PATH")
        mark = self.rec.mark()
        sent = await self.cmd.send_msg_with_retry(target, "meshport interop retry", max_attempts=2)
        if sent is None:
            evs = self.rec.events_since(mark)
            raise CheckFailed("send_msg_with_retry returned None (no ACK in 2 attempts); events: "
                              + ("; ".join(show(e, 160) for e in evs) or "none"))
        need(sent.type == EventType.MSG_SENT, f"send_msg_with_retry returned {show(sent)}")
        need(sent.payload["type"] == 1, f"DM after RESET_PATH was not sent flood: {plain(sent.payload)}")
        pu = [e for e in self.rec.events_since(mark, EventType.PATH_UPDATE) if e.payload.get("public_key") == key]
        need(pu, f"the flood DM was acknowledged but no PATH_UPDATE for {key[:12]} arrived")
        ev = expect(await self.cmd.get_contact_by_key(bytes.fromhex(key)), EventType.NEXT_CONTACT, "GET_CONTACT_BY_KEY")
        need(ev.payload["out_path_len"] >= 0, f"after the path-return the contact still has no path: {plain(ev.payload)}")

    # -- remote requests -----------------------------------------------------------------------

    def explain_no_reply(self, mark: tuple, wanted: str) -> str:
        evs = self.rec.events_since(mark)
        errors = [e for e in evs if e.type == EventType.ERROR]
        sent = [e for e in evs if e.type == EventType.MSG_SENT]
        if errors and not sent:
            return f"the request was answered {show(errors[0])}"
        if sent:
            return (f"MSG_SENT {plain(sent[0].payload)} but no {wanted}; events after it: "
                    + ("; ".join(show(e, 160) for e in evs if e.type != EventType.MSG_SENT) or "none"))
        return f"no MSG_SENT and no ERROR; events: " + ("; ".join(show(e, 160) for e in evs) or "none")

    async def login(self, name: str, password: str, admin: bool) -> None:
        contact = self.contact_named(name)
        mark = self.rec.mark()
        ev = await self.cmd.send_login_sync(contact, password)
        if ev is None:
            raise CheckFailed(f"send_login_sync({name!r}, {password!r}) returned None: " + self.explain_no_reply(mark, "LOGIN_SUCCESS"))
        p = expect(ev, EventType.LOGIN_SUCCESS, "login").payload
        need(p.get("pubkey_prefix") == contact["public_key"][:12],
             f"LOGIN_SUCCESS for {p.get('pubkey_prefix')}, expected {contact['public_key'][:12]}: {p}")
        need(p.get("is_admin") == admin, f"is_admin {p.get('is_admin')}, expected {admin}: {p}")
        need({"server_timestamp", "acl_permissions", "fw_ver_level"} <= p.keys(),
             f"LOGIN_SUCCESS without the server timestamp / ACL / firmware level of a current server (14-byte push): {p}")
        if admin:
            need(p["acl_permissions"] & 3 == 3, f"admin login with ACL permissions {p['acl_permissions']}: {p}")

    async def login_repeater(self) -> None:
        await self.login(REPEATER, "password", admin=True)

    async def login_room(self) -> None:
        await self.login(ROOM, "hello", admin=False)

    @staticmethod
    def sane_status(s: dict, prefix: str) -> None:
        need(s.get("pubkey_pre") == prefix, f"status for {s.get('pubkey_pre')}, expected {prefix}: {s}")
        need(2500 <= s["bat"] <= 5000, f"bat {s['bat']} mV: {s}")
        need(s["uptime"] > 0, f"uptime {s['uptime']}: {s}")
        need(-150 <= s["noise_floor"] < 0 and -150 <= s["last_rssi"] <= 0, f"noise_floor {s['noise_floor']} / last_rssi {s['last_rssi']}: {s}")
        need(s["tx_queue_len"] < 256, f"tx_queue_len {s['tx_queue_len']}: {s}")
        need(s["nb_sent"] >= 1 and s["nb_recv"] >= 1, f"a repeater that has answered us has sent and received packets: {s}")
        need(s["recv_errors"] is not None, f"no recv_errors (status blob shorter than 56 bytes): {s}")

    @staticmethod
    def sane_lpp(lpp: Any) -> None:
        need(isinstance(lpp, list) and lpp, f"telemetry LPP is empty: {lpp!r}")
        for r in lpp:
            need({"channel", "type", "value"} <= r.keys(), f"LPP record {r}")
        volts = [r for r in lpp if r["type"] == "voltage" and r["channel"] == 1]
        need(volts and 2.5 <= volts[0]["value"] <= 5.0, f"no battery voltage (LPP voltage, channel 1) in {lpp}")

    async def status(self) -> None:
        contact = self.contact_named(REPEATER)
        mark = self.rec.mark()
        s = await self.cmd.req_status_sync(contact)
        if s is None:
            raise CheckFailed("req_status_sync (SEND_BINARY_REQ 0x32, type 1) returned None: " + self.explain_no_reply(mark, "STATUS_RESPONSE"))
        self.sane_status(s, contact["public_key"][:12])

    async def telemetry(self) -> None:
        contact = self.contact_named(REPEATER)
        mark = self.rec.mark()
        lpp = await self.cmd.req_telemetry_sync(contact)
        if lpp is None:
            raise CheckFailed("req_telemetry_sync (SEND_BINARY_REQ 0x32, type 3) returned None: "
                              + self.explain_no_reply(mark, "TELEMETRY_RESPONSE"))
        self.sane_lpp(lpp)

    async def legacy_request(self, send: Callable[[dict], Awaitable[Event]], etype: EventType, label: str) -> Event:
        contact = self.contact_named(REPEATER)
        prefix = contact["public_key"][:12]
        mark = self.rec.mark()
        ev = expect(await send(contact), EventType.MSG_SENT, label)
        wait = ev.payload["suggested_timeout"] / 800           # what the *_sync helpers allow
        got = await self.rec.wait_event(mark, lambda e: e.type == etype and e.attributes.get("pubkey_prefix") == prefix, wait)
        if got is None:
            raise CheckFailed(f"{label}: no {etype.name} for {prefix} within {wait:.1f} s: " + self.explain_no_reply(mark, etype.name))
        return got

    async def status_push(self) -> None:
        ev = await self.legacy_request(self.cmd.send_statusreq, EventType.STATUS_RESPONSE, "SEND_STATUS_REQ (0x1b)")
        self.sane_status(ev.payload, self.contact_named(REPEATER)["public_key"][:12])

    async def telemetry_push(self) -> None:
        ev = await self.legacy_request(self.cmd.send_telemetry_req, EventType.TELEMETRY_RESPONSE, "SEND_TELEMETRY_REQ (0x27)")
        self.sane_lpp(ev.payload.get("lpp"))

    async def telemetry_self(self) -> None:
        """SEND_TELEMETRY_REQ without a key (4 bytes): the radio's own telemetry, pushed at once."""
        mark = self.rec.mark()
        ev = await self.cmd.get_self_telemetry()
        need(ev.type == EventType.TELEMETRY_RESPONSE,
             f"get_self_telemetry (27 00 00 00): expected TELEMETRY_RESPONSE, got {show(ev)}"
             + ("" if ev.type == EventType.ERROR and "error_code" in ev.payload else "; " + self.explain_no_reply(mark, "TELEMETRY_RESPONSE")))
        own = self.mc.self_info["public_key"][:12]
        need(ev.payload.get("pubkey_pre") == own, f"self telemetry for {ev.payload.get('pubkey_pre')}, expected own prefix {own}")
        self.sane_lpp(ev.payload.get("lpp"))

    # -- device settings -----------------------------------------------------------------------

    async def battery(self) -> None:
        mark = self.rec.mark()
        p = expect(await self.cmd.get_bat(), EventType.BATTERY, "GET_BATT_AND_STORAGE").payload
        need(2500 <= p["level"] <= 5000, f"battery {p['level']} mV")
        need("used_kb" in p and 0 < p["used_kb"] <= p["total_kb"], f"storage {p}")
        frame_len(self.rec.frames_since(mark, 0x0C), 0x0C, 11, "BATT_AND_STORAGE")

    async def stats(self) -> None:
        core = expect(await self.cmd.get_stats_core(), EventType.STATS_CORE, "GET_STATS core").payload
        need(2500 <= core["battery_mv"] <= 5000, f"core stats {core}")
        radio = expect(await self.cmd.get_stats_radio(), EventType.STATS_RADIO, "GET_STATS radio").payload
        need(-150 <= radio["noise_floor"] < 0, f"radio stats {radio}")
        packets = expect(await self.cmd.get_stats_packets(), EventType.STATS_PACKETS, "GET_STATS packets").payload
        need(packets["sent"] >= 1 and packets["recv"] >= 1, f"packet stats after DMs were sent and acknowledged: {packets}")
        need(packets["sent"] == packets["flood_tx"] + packets["direct_tx"], f"sent != flood_tx + direct_tx: {packets}")
        need(packets["recv_errors"] is not None, f"legacy 26-byte packets frame (no recv_errors): {packets}")

    async def set_name(self) -> None:
        long_name = "Meshport interop tester with a long name"      # 40 bytes: the radio keeps 31
        expect(await self.cmd.set_name(long_name), EventType.OK, "SET_ADVERT_NAME (40 bytes)")
        si = expect(await self.cmd.send_appstart(), EventType.SELF_INFO, "APP_START").payload
        need(si["name"] == long_name[:31], f"after a 40-byte name SELF_INFO name is {si['name']!r}, expected the first 31 bytes {long_name[:31]!r}")
        name = "Interop Tester"
        expect(await self.cmd.set_name(name), EventType.OK, f"SET_ADVERT_NAME {name!r}")
        si = expect(await self.cmd.send_appstart(), EventType.SELF_INFO, "APP_START").payload
        need(si["name"] == name, f"SELF_INFO name {si['name']!r}, expected {name!r}")
        need(await eventually(lambda: self.mc.self_info.get("name") == name), f"MeshCore.self_info name {self.mc.self_info.get('name')!r}")

    async def set_radio(self) -> None:
        freq, bw, sf, cr = 869.525, 250.0, 11, 5
        expect(await self.cmd.set_radio(freq, bw, sf, cr), EventType.OK, "SET_RADIO_PARAMS")
        si = expect(await self.cmd.send_appstart(), EventType.SELF_INFO, "APP_START").payload
        need(close(si["radio_freq"], freq) and close(si["radio_bw"], bw) and si["radio_sf"] == sf and si["radio_cr"] == cr,
             f"SELF_INFO radio {si['radio_freq']} MHz / {si['radio_bw']} kHz / SF{si['radio_sf']} / CR{si['radio_cr']}, "
             f"expected {freq} / {bw} / SF{sf} / CR{cr}")

    async def set_radio_invalid(self) -> None:
        before = expect(await self.cmd.send_appstart(), EventType.SELF_INFO, "APP_START").payload
        ev = await self.cmd.set_radio(869.525, 250.0, 13, 5)                 # SF 13 does not exist
        need(ev.type == EventType.ERROR and ev.payload.get("error_code") == ILLEGAL_ARG,
             f"SET_RADIO_PARAMS with SF 13: expected ERROR error_code {ILLEGAL_ARG} (ILLEGAL_ARG), got {show(ev)}")
        after = expect(await self.cmd.send_appstart(), EventType.SELF_INFO, "APP_START").payload
        need(after["radio_sf"] == before["radio_sf"], f"rejected SET_RADIO_PARAMS changed SF {before['radio_sf']} -> {after['radio_sf']}")

    async def set_tx_power(self) -> None:
        """meshcore_py sends the power as 4 bytes (0c + u32 LE); the firmware reads byte 1 as an
        i8 and ignores the rest (a known gap of meshcore_py), so positive powers work."""
        power = 10
        ev = await self.cmd.set_tx_power(power)
        need(ev.type == EventType.OK, f"set_tx_power({power}) (frame 0c{power.to_bytes(4, 'little').hex()}): expected OK, got {show(ev)}")
        si = expect(await self.cmd.send_appstart(), EventType.SELF_INFO, "APP_START").payload
        need(si["tx_power"] == power, f"SELF_INFO tx_power {si['tx_power']}, expected {power}")

    async def set_time(self) -> None:
        t0 = expect(await self.cmd.get_time(), EventType.CURRENT_TIME, "GET_DEVICE_TIME").payload["time"]
        need(t0 > 1_600_000_000, f"device time {t0}")
        target = t0 + 3600
        expect(await self.cmd.set_time(target), EventType.OK, f"SET_DEVICE_TIME {target} (1 h ahead)")
        t1 = expect(await self.cmd.get_time(), EventType.CURRENT_TIME, "GET_DEVICE_TIME").payload["time"]
        need(target <= t1 <= target + 10, f"GET_DEVICE_TIME {t1} after SET_DEVICE_TIME {target}")
        need(await eventually(lambda: self.mc.time == t1), f"MeshCore.time {self.mc.time}, last CURRENT_TIME {t1}")

    async def time_backwards(self) -> None:
        now = expect(await self.cmd.get_time(), EventType.CURRENT_TIME, "GET_DEVICE_TIME").payload["time"]
        ev = await self.cmd.set_time(now - 86_400)
        need(ev.type == EventType.ERROR and ev.payload.get("error_code") == ILLEGAL_ARG,
             f"SET_DEVICE_TIME a day back: expected ERROR error_code {ILLEGAL_ARG} (ILLEGAL_ARG), got {show(ev)}")
        later = expect(await self.cmd.get_time(), EventType.CURRENT_TIME, "GET_DEVICE_TIME").payload["time"]
        need(later >= now, f"the clock went back from {now} to {later}")

    # -- pushes while connected ------------------------------------------------------------------

    async def auto_fetch(self) -> None:
        """start_auto_message_fetching: a message arriving now is announced by MSG_WAITING and
        fetched without being asked; queued after DEVICE_QUERY(3), it comes in the V3 format."""
        mark = self.rec.mark()
        await self.mc.start_auto_message_fetching()
        try:
            waiting = await self.rec.wait_event(mark, lambda e: e.type == EventType.MESSAGES_WAITING, 18)
            need(waiting is not None, "no MESSAGES_WAITING push within 18 s (the sim delivers a channel message every 15 s)")
            after = next(i for i, e in enumerate(self.rec.events) if e is waiting) + 1
            got = await self.rec.wait_event((0, after), lambda e: e.type in (EventType.CHANNEL_MSG_RECV, EventType.CONTACT_MSG_RECV), 3)
            need(got is not None, "MESSAGES_WAITING arrived but auto-fetching yielded no message")
            frames = [e["data"] for e in self.rec.log[mark[0]:] if e["dir"] == "rx" and got in e["events"]]
            need(frames and frames[0][0] in (0x10, 0x11),
                 f"message queued after DEVICE_QUERY(3) came as 0x{frames[0][0]:02x}, expected V3 0x10/0x11: {frames[0].hex()}" if frames
                 else "no frame behind the fetched message")
        finally:
            await self.mc.stop_auto_message_fetching()

    async def frames_parsed(self) -> None:
        """Every frame the sim sent became an event (CONTACTS_START by design does not), and
        meshcore_py logged no parse error or warning."""
        silent = [e["data"] for e in self.rec.log
                  if e["dir"] == "rx" and not e["events"] and not (e["data"] and e["data"][0] == 0x02)]
        problems = [f"frame without an event: {d.hex()}" for d in silent[:5]]
        if len(silent) > 5:
            problems.append(f"... {len(silent) - 5} more frames without an event")
        problems += self.rec.logged[:5]
        need(not problems, "; ".join(problems))


CHECKS: List[tuple] = [
    # name, method, time limit (s)
    ("connect", Session.connect, 25),
    ("self_info", Session.self_info, 5),
    ("device_query", Session.device_query, 5),
    ("contacts", Session.contacts, 30),
    ("messages", Session.messages, 20),
    ("channel_get", Session.channel_get, 5),
    ("channel_set", Session.channel_set, 8),
    ("channel_echoes", Session.channel_echoes, 12),
    ("dm_ack", Session.dm_ack, 25),
    ("dm_flood_path", Session.dm_flood_path, 40),
    ("login_repeater", Session.login_repeater, 12),
    ("status", Session.status, 12),
    ("telemetry", Session.telemetry, 12),
    ("status_push", Session.status_push, 12),
    ("telemetry_push", Session.telemetry_push, 12),
    ("telemetry_self", Session.telemetry_self, 5),
    ("login_room", Session.login_room, 12),
    ("battery", Session.battery, 5),
    ("stats", Session.stats, 8),
    ("set_name", Session.set_name, 10),
    ("set_radio", Session.set_radio, 8),
    ("set_radio_invalid", Session.set_radio_invalid, 8),
    ("set_tx_power", Session.set_tx_power, 5),
    ("set_time", Session.set_time, 8),
    ("time_backwards", Session.time_backwards, 8),
    ("auto_fetch", Session.auto_fetch, 25),
    ("frames_parsed", Session.frames_parsed, 5),
]


# ---------------------------------------------------------------------------------------------


def tolerate_pty_modem_lines(notes: List[str], path: str) -> None:
    """pyserial ignores ENOTTY/EINVAL from the DTR/RTS ioctls while opening a port (a pty has no
    modem lines), but not when meshcore_py sets `transport.serial.dtr` / `.rts` afterwards."""
    import serial.serialposix as sp
    failed: List[str] = []

    def tolerant(orig, line):
        def update(self):
            try:
                orig(self)
            except OSError as e:
                if e.errno not in (errno.ENOTTY, errno.EINVAL):
                    raise
                if line not in failed:
                    failed.append(line)
                    notes[:] = [n for n in notes if not n.startswith("NOTE serial:")]
                    notes.append(f"NOTE serial: pyserial cannot set {'/'.join(failed)} on {path} ({e}): a pty has no "
                                 "modem-control lines. meshcore_py sets DTR and RTS unconditionally once the port is open "
                                 "and never connects to a pty unaided; this run ignored that error as pyserial's open() does")
        return update

    sp.Serial._update_dtr_state = tolerant(sp.Serial._update_dtr_state, "DTR")
    sp.Serial._update_rts_state = tolerant(sp.Serial._update_rts_state, "RTS")


def parse_args(argv: List[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="meshcore_py against MeshSim")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--tcp", metavar="HOST:PORT")
    where.add_argument("--serial", metavar="PATH")
    ap.add_argument("--min-contacts", type=int, default=300, metavar="N")
    ap.add_argument("--only", metavar="NAMES", help="comma-separated check names (connect always runs)")
    ap.add_argument("--debug", action="store_true", help="meshcore_py debug logging on stderr")
    args = ap.parse_args(argv)
    if args.tcp:
        host, sep, port = args.tcp.rpartition(":")
        if not sep or not host or not port.isdigit():
            ap.error(f"--tcp {args.tcp!r}: expected HOST:PORT")
        args.tcp = (host, int(port))
    names = [c[0] for c in CHECKS]
    args.only = set(args.only.split(",")) if args.only else None
    if args.only and not args.only <= set(names):
        ap.error(f"unknown checks {sorted(args.only - set(names))}; known: {', '.join(names)}")
    return args


async def run(args: argparse.Namespace) -> int:
    rec = Recorder()
    rec.install()
    notes: List[str] = []
    if args.serial:
        tolerate_pty_modem_lines(notes, args.serial)
    session = Session(args, rec)
    version = metadata.version("meshcore")
    where = f"tcp {args.tcp[0]}:{args.tcp[1]}" if args.tcp else f"serial {args.serial}"
    print(f"meshcore_py {version} against MeshSim over {where}" + ("" if version == TESTED_VERSION else f" (written for {TESTED_VERSION})"))
    sys.stdout.flush()

    passed = failed = 0
    connected = True
    for name, method, limit in CHECKS:
        if args.only and name != "connect" and name not in args.only:
            continue
        if not connected:
            print(f"FAIL {name}: not run, connect failed")
            failed += 1
            continue
        mark = rec.mark()
        reason = None
        try:
            await asyncio.wait_for(method(session), limit)
        except CheckFailed as e:
            reason = str(e)
        except asyncio.TimeoutError:
            reason = f"no result within the check's {limit} s"
        except Exception as e:  # a crash in meshcore_py or here is a failure of this check only
            reason = f"{type(e).__name__}: {e}"
        if reason is None:
            print(f"PASS {name}")
            passed += 1
        else:
            print(f"FAIL {name}: {reason}")
            for line in rec.evidence(mark):
                print(f"    {line}")
            failed += 1
            if name == "connect":
                connected = False
        sys.stdout.flush()

    if session.mc is not None:
        try:
            await asyncio.wait_for(session.mc.disconnect(), 5)
        except Exception as e:
            notes.append(f"NOTE disconnect: {type(e).__name__}: {e}")
    for line in notes:
        print(line)
    for line in rec.logged:
        print(f"NOTE meshcore_py logged: {line}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def main(argv: List[str]) -> int:
    args = parse_args(argv)
    if args.debug:
        logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        logging.getLogger("meshcore").setLevel(logging.DEBUG)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
