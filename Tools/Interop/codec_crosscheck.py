#!/usr/bin/env python3
"""Meshport <-> meshcore_py codec cross-check (reference-client half).

Usage:
    .venv/bin/python Tools/Interop/codec_crosscheck.py <export.json>
    .venv/bin/python Tools/Interop/codec_crosscheck.py --selftest
    .venv/bin/python Tools/Interop/codec_crosscheck.py --dump-selftest out.json   (example input)

Output: one line per check ("PASS|FAIL|KNOWN <frame|command> <name>[: detail]"), then
"N passed, M failed" (KNOWN counts as passed). Exit 0 if M == 0, 1 otherwise, 2 on bad input.

The JSON file is produced by the Swift exporter (see EXPECTED_MAPPING.md in this
directory for the exact shape and how to compute every expected value).

Frames (radio -> app) are delivered to a real meshcore.reader.MessageReader
wired to a real meshcore.events.EventDispatcher, through the real
TCPConnection.handle_rx framer ('>' + u16 LE length + frame), i.e. exactly the
path a frame takes when it arrives from a TCP socket.  The emitted events are
captured and every key in "expect.payload" is compared with what meshcore_py
produced.

Commands (app -> radio) are produced by calling the real meshcore_py command
method on a real MeshCore object whose TCPConnection has a fake asyncio
transport: the bytes written to the transport are recorded (and the '<' header
is checked), and a plausible reply frame is fed back through handle_rx so that
methods which wait for an answer return immediately.

Disagreements fail (exit status 1) unless they are listed in KNOWN_FLAWS below.
Only the installed meshcore package is imported; nothing from it is copied.
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import hashlib
import json
import logging
import math
import re
import struct
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable, Dict, List, Optional
from unittest import mock

from meshcore import packets as mc_packets
from meshcore.events import EventDispatcher
from meshcore.meshcore import MeshCore
from meshcore.reader import MessageReader
from meshcore.serial_cx import SerialConnection
from meshcore.tcp_cx import TCPConnection

TESTED_VERSION = "2.3.17"
CMD_DEFAULT_TIMEOUT = 0.5       # MeshCore(default_timeout=...) for command checks
CMD_HARD_TIMEOUT = 5.0          # absolute cap per command call
FLOAT_ABS_TOL = 1e-6
FLOAT_REL_TOL = 1e-9


# --------------------------------------------------------------------------------------
# Known flaws.
#
# Key: a command check name or meshcore_py command method name (commands); a glob over
# "<EventType>.<payload key path>" (frames; the path is dotted, e.g.
# "CONTACTS.*.adv_name"), or "frame:<check name>" to excuse a whole frame check.
# A frame disagreement is KNOWN only if *every* mismatching key is covered.
# "match" (optional) narrows the excuse to the documented difference; if it returns
# False the disagreement is a real FAIL.
#   commands: match(ctx) with ctx.ours / ctx.py (bytes, or list of bytes when the
#             exporter gave a list), ctx.exc (exception raised by meshcore_py or None),
#             ctx.args, ctx.kwargs
#   frame keys: match(expected, actual) -> bool   (actual is MISSING if absent)
# "ref" is a Docs/protocol.md reference ("§10 #N"), "meshcore_py" (a known gap of the
# reference client itself) or "undocumented" (found while writing this script; not yet in
# Docs/protocol.md §10).
# --------------------------------------------------------------------------------------

class _Missing:
    def __repr__(self):
        return "<missing>"


MISSING = _Missing()


@dataclass
class Flaw:
    ref: str
    reason: str
    match: Optional[Callable[..., bool]] = None

    def label(self) -> str:
        return f"known flaw ({self.ref})"


def _only_diff_at(a: bytes, b: bytes, idxs) -> bool:
    if not isinstance(a, (bytes, bytearray)) or not isinstance(b, (bytes, bytearray)):
        return False
    if len(a) != len(b):
        return False
    return all(x == y or i in idxs for i, (x, y) in enumerate(zip(a, b)))


def _i32_fields_close(a: bytes, b: bytes, offsets, tol=1, signed=True) -> bool:
    """a and b equal except i32/u32 fields at `offsets`, which may differ by <= tol."""
    if len(a) != len(b):
        return False
    covered = set()
    fmt = "<i" if signed else "<I"
    for off in offsets:
        if off + 4 > len(a):
            return False
        (x,) = struct.unpack_from(fmt, a, off)
        (y,) = struct.unpack_from(fmt, b, off)
        if abs(x - y) > tol:
            return False
        covered.update(range(off, off + 4))
    return all(x == y or i in covered for i, (x, y) in enumerate(zip(a, b)))


def _is_exc(ctx, *types) -> bool:
    return ctx.exc is not None and isinstance(ctx.exc, types)


def _tx_power_match(ctx) -> bool:
    ours = ctx.ours
    if not (isinstance(ours, bytes) and len(ours) == 2 and ours[0] == 0x0C):
        return False
    dbm = struct.unpack("<b", ours[1:2])[0]
    if dbm < 0:
        return _is_exc(ctx, OverflowError)
    return ctx.py == b"\x0c" + struct.pack("<I", dbm)


def _update_contact_match(ctx) -> bool:
    py, ours = ctx.py, ctx.ours
    if not isinstance(py, bytes) or not isinstance(ours, bytes):
        return False
    if len(py) != 144 or len(ours) not in (144, 148):
        return False
    # lat @136, lon @140 may differ by one unit (int() truncation vs rounding)
    return _i32_fields_close(py, ours[:144], [136, 140])


def _default_scope_match(ctx) -> bool:
    if _is_exc(ctx, TypeError):           # set_default_flood_scope(None)
        return True
    py, ours = ctx.py, ctx.ours
    if not isinstance(py, bytes) or not isinstance(ours, bytes):
        return False
    if len(ours) < 48:                     # our "clear" form; py sends 47/48 zero bytes
        return py[:1] == b"\x3f" and set(py[1:]) <= {0}
    # name padded by character count instead of byte count (non-ASCII names)
    return py[:1] == ours[:1] and py[-16:] == ours[-16:] and py[1:-16].rstrip(b"\0") == ours[1:32].rstrip(b"\0")


def _path_missing(expected, actual) -> bool:
    return actual is MISSING


def _prefix_str(expected, actual) -> bool:
    return isinstance(expected, str) and isinstance(actual, str) and actual.startswith(expected)


KNOWN_FLAWS: Dict[str, Flaw] = {
    # ---- commands: known gaps of meshcore_py ------------------------------------------
    "confirm_factory_reset": Flaw(
        "meshcore_py", "sends bare 0x33 without the required ASCII 'reset' -> firmware replies ERR UNSUPPORTED_CMD",
        match=lambda c: c.py == b"\x33" and c.ours == b"\x33reset"),
    "has_connection": Flaw(
        "meshcore_py", "sends bare 0x1C without the 32-byte pubkey -> firmware replies ERR UNSUPPORTED_CMD",
        match=lambda c: c.py == b"\x1c" and isinstance(c.ours, bytes) and len(c.ours) == 33 and c.ours[:1] == b"\x1c"),
    "set_tx_power": Flaw(
        "meshcore_py", "encodes dBm as u32 LE (5-byte frame) instead of one i8; negative values raise OverflowError",
        match=_tx_power_match),
    # ---- commands, §10 -----------------------------------------------------------------
    "send_raw_data": Flaw(
        "§10 #16", "path byte is a byte count (as the firmware reads it), not the encoded path_len",
        match=lambda c: _only_diff_at(c.py, c.ours, {1})),
    "send_channel_data": Flaw(
        "§10 #4", "refuses payloads > 163 bytes (the 172-byte-frame limit); firmware 1.16+ accepts up to 165 (167)",
        match=lambda c: _is_exc(c, ValueError) and isinstance(c.ours, bytes) and c.ours[:1] == b"\x3e"),
    # ---- commands, found while writing this script (not yet in Docs/protocol.md §10) ------
    "set_tuning": Flaw(
        "undocumented", "appends two extra 0x00 bytes after airtime_factor (11-byte frame; firmware ignores them)",
        match=lambda c: isinstance(c.ours, bytes) and c.py == c.ours + b"\x00\x00"),
    "set_autoadd_config": Flaw(
        "undocumented", "cannot send the optional max-hops byte [2] (1.14.0+): always a 2-byte frame",
        match=lambda c: isinstance(c.ours, bytes) and len(c.ours) == 3 and c.py == c.ours[:2]),
    "update_contact": Flaw(
        "undocumented", "omits optional lastmod [144..147]; lat/lon use int() truncation (may be 1e-6 deg low)",
        match=_update_contact_match),
    "add_contact": Flaw(
        "undocumented", "same encoder as update_contact: no lastmod, int() truncation of lat/lon",
        match=_update_contact_match),
    "change_contact_path": Flaw(
        "undocumented", "same encoder as update_contact: no lastmod, int() truncation of lat/lon",
        match=lambda c: _update_contact_match(c) if isinstance(c.py, bytes) else False),
    "change_contact_flags": Flaw(
        "undocumented", "same encoder as update_contact: no lastmod, int() truncation of lat/lon",
        match=_update_contact_match),
    "set_coords": Flaw(
        "undocumented", "int(deg*1e6) truncates toward zero (1 unit below a rounding encoder for ~1.6% of values)",
        match=lambda c: isinstance(c.py, bytes) and isinstance(c.ours, bytes)
        and _i32_fields_close(c.py, c.ours + b"\0" * (len(c.py) - len(c.ours)) if len(c.ours) == 9 else c.ours, [1, 5])),
    "set_radio": Flaw(
        "undocumented", "int(MHz*1000)/int(kHz*1000) truncate toward zero (e.g. 518.685 MHz -> 518684 kHz)",
        match=lambda c: isinstance(c.py, bytes) and isinstance(c.ours, bytes)
        and _i32_fields_close(c.py, c.ours, [1, 5], signed=False)),
    "send_cmd": Flaw(
        "undocumented", "uses txt_type 3 (CLI_CMD) when the destination is a CHAT node; firmware accepts only 0/1",
        match=lambda c: _only_diff_at(c.py, c.ours, {1}) and c.py[1] == 3),
    "set_name": Flaw(
        "undocumented", "sends the whole UTF-8 name; the firmware keeps 31 bytes (our encoder truncates at a char boundary)",
        match=lambda c: isinstance(c.py, bytes) and isinstance(c.ours, bytes) and len(c.ours) <= 32
        and len(c.py) > len(c.ours) and c.py.startswith(c.ours)),
    "set_channel": Flaw(
        "undocumented", "name cut at 32 bytes (no room for the NUL of str[32]); ours keeps <= 31 bytes + NUL",
        match=lambda c: isinstance(c.py, bytes) and isinstance(c.ours, bytes) and len(c.py) == len(c.ours) == 50
        and c.py[:2] == c.ours[:2] and c.py[34:] == c.ours[34:]
        and c.py[2:34].startswith(c.ours[2:34].rstrip(b"\0")) and c.py[33] != 0),
    "set_flood_scope": Flaw(
        "undocumented", "None/'0'/'None'/'' send [1]=0 + 16 zero bytes instead of the 2-byte 'clear session scope' form",
        match=lambda c: c.ours == b"\x36\x00" and c.py == b"\x36\x00" + b"\x00" * 16),
    "set_default_flood_scope": Flaw(
        "undocumented", "None raises TypeError; reset sends 47/48 zero bytes instead of a short frame; name padded by chars not bytes",
        match=_default_scope_match),
    "reset_default_flood_scope": Flaw(
        "undocumented", "calls set_default_flood_scope(None) which raises TypeError (len(None))",
        match=lambda c: _is_exc(c, TypeError)),

    # ---- frames: per payload key (glob over "<EventType>.<key path>") ------------------
    "SELF_INFO.tx_power": Flaw(
        "undocumented", "tx_power read as unsigned byte; firmware sends i8 since 1.13.0 (-9 dBm -> 247)",
        match=lambda e, a: isinstance(e, int) and e < 0 and a == e + 256),
    "NEXT_CONTACT.adv_name": Flaw(
        "undocumented", "adv_name = all 32 bytes with every NUL removed (bytes after the first NUL leak in)",
        match=_prefix_str),
    "NEW_CONTACT.adv_name": Flaw(
        "undocumented", "adv_name = all 32 bytes with every NUL removed (bytes after the first NUL leak in)",
        match=_prefix_str),
    "CONTACTS.*.adv_name": Flaw(
        "undocumented", "adv_name = all 32 bytes with every NUL removed (bytes after the first NUL leak in)",
        match=_prefix_str),
    "DEVICE_INFO.fw_build": Flaw("undocumented", "str field: every NUL removed, not cut at first NUL", match=_prefix_str),
    "DEVICE_INFO.model": Flaw("undocumented", "str field: every NUL removed, not cut at first NUL", match=_prefix_str),
    "DEVICE_INFO.ver": Flaw("undocumented", "str field: every NUL removed, not cut at first NUL", match=_prefix_str),
    "DEFAULT_FLOOD_SCOPE.scope_name": Flaw("undocumented", "str field: every NUL removed, not cut at first NUL",
                                           match=_prefix_str),
    "TRACE_DATA.path": Flaw(
        "undocumented", "'path' (incl. the final SNR) is omitted when hops == 0 or the frame is shorter than needed",
        match=_path_missing),
    "CHANNEL_MSG_RECV.text": Flaw(
        "undocumented", "legacy 0x08 text is NUL-stripped at both ends (V3 0x11 is not)",
        match=lambda e, a: isinstance(e, str) and a == e.strip("\0")),
    "TELEMETRY_RESPONSE.lpp": Flaw(
        "undocumented", "LPP loop stops at a record whose channel byte is 0",
        match=lambda e, a: isinstance(e, list) and isinstance(a, list) and len(a) < len(e) and e[:len(a)] == a),
}


# --------------------------------------------------------------------------------------
# Value comparison
# --------------------------------------------------------------------------------------

_HEX_RE = re.compile(r"^[0-9a-fA-F]*$")


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def compare(expected, actual, path: str, out: List[tuple]):
    """Append (path, expected, actual) for every mismatch (expected is a subset spec)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            out.append((path, expected, actual))
            return
        for k, ev in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if k not in actual:
                out.append((sub, ev, MISSING))
            else:
                compare(ev, actual[k], sub, out)
        return
    if isinstance(expected, list):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            out.append((path, expected, actual))
            return
        for i, (ev, av) in enumerate(zip(expected, actual)):
            compare(ev, av, f"{path}[{i}]", out)
        return
    if isinstance(expected, bool):
        if not (isinstance(actual, bool) and actual == expected):
            out.append((path, expected, actual))
        return
    if expected is None:
        if actual is not None:
            out.append((path, expected, actual))
        return
    if _is_num(expected):
        if not _is_num(actual):
            out.append((path, expected, actual))
        elif isinstance(expected, float) or isinstance(actual, float):
            if not math.isclose(float(expected), float(actual), rel_tol=FLOAT_REL_TOL, abs_tol=FLOAT_ABS_TOL):
                out.append((path, expected, actual))
        elif expected != actual:
            out.append((path, expected, actual))
        return
    if isinstance(expected, str):
        if isinstance(actual, (bytes, bytearray)):
            if not (_HEX_RE.match(expected) and bytes(actual).hex() == expected.lower()):
                out.append((path, expected, actual))
            return
        if isinstance(actual, str):
            if actual == expected:
                return
            if _HEX_RE.match(actual) and _HEX_RE.match(expected) and actual.lower() == expected.lower():
                return
            if actual.startswith("meshcore://") and actual.lower() == expected.lower():
                return
        out.append((path, expected, actual))
        return
    if expected != actual:
        out.append((path, expected, actual))


def _short(v, n=160) -> str:
    if isinstance(v, (bytes, bytearray)):
        s = "bytes:" + bytes(v).hex()
    else:
        s = repr(v)
    return s if len(s) <= n else s[: n - 3] + "..."


# --------------------------------------------------------------------------------------
# JSON argument decoding for commands
# --------------------------------------------------------------------------------------

def decode_arg(v):
    """{"$bytes": hex} -> bytes, {"$bytearray": hex} -> bytearray,
    {"$enum": "BinaryReqType.STATUS"} -> meshcore.packets enum member; recursive."""
    if isinstance(v, dict):
        if set(v) == {"$bytes"}:
            return bytes.fromhex(v["$bytes"])
        if set(v) == {"$bytearray"}:
            return bytearray.fromhex(v["$bytearray"])
        if set(v) == {"$enum"}:
            cls_name, member = v["$enum"].split(".", 1)
            return getattr(getattr(mc_packets, cls_name), member)
        return {k: decode_arg(x) for k, x in v.items()}
    if isinstance(v, list):
        return [decode_arg(x) for x in v]
    return v


# --------------------------------------------------------------------------------------
# Log capture (meshcore logs parse errors instead of raising)
# --------------------------------------------------------------------------------------

class _LogCapture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records: List[str] = []

    def emit(self, record):
        try:
            msg = record.getMessage()
        except Exception:  # pragma: no cover
            msg = str(record.msg)
        self.records.append(f"{record.levelname}: {msg.splitlines()[0] if msg else ''}")


LOGCAP = _LogCapture()
_mc_logger = logging.getLogger("meshcore")
_mc_logger.addHandler(LOGCAP)
_mc_logger.propagate = False


# --------------------------------------------------------------------------------------
# Frame checks
# --------------------------------------------------------------------------------------

def framed(frame: bytes, start: bytes = b">") -> bytes:
    return start + struct.pack("<H", len(frame)) + frame


async def _settle(cx, dispatcher):
    """Run everything the transport spawned and everything queued in the dispatcher."""
    for _ in range(50):
        tasks = [t for t in getattr(cx, "_background_tasks", ()) if not t.done()]
        tasks += [t for t in dispatcher._background_tasks if not t.done()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if dispatcher.queue is not None:
            await dispatcher.queue.join()
        await asyncio.sleep(0)
        if not any(not t.done() for t in getattr(cx, "_background_tasks", ())) and \
                not any(not t.done() for t in dispatcher._background_tasks) and \
                (dispatcher.queue is None or dispatcher.queue.empty()):
            return


async def _deliver(transport: str, cx, reader: MessageReader, dispatcher, frame: bytes):
    if transport in ("tcp", "serial"):
        cx.handle_rx(framed(frame))
    elif transport == "ble":       # BLE: one notification = one frame, handed over as bytearray
        await reader.handle_rx(bytearray(frame))
    else:
        raise ValueError(f"unknown transport {transport!r}")
    await _settle(cx, dispatcher)


@dataclass
class Result:
    kind: str        # frame / command
    name: str
    status: str      # PASS / FAIL / KNOWN
    detail: str = ""


def _frame_known(name: str, event: str, mismatches: List[tuple]) -> Optional[Flaw]:
    if "frame:" + name in KNOWN_FLAWS:                 # whole-check excuse (none at present)
        return KNOWN_FLAWS["frame:" + name]
    if not mismatches:
        return None
    used = None
    for path, ev, av in mismatches:
        hit = None
        dotted = f"{event}.{path}"
        for key, flaw in KNOWN_FLAWS.items():
            if "." not in key or key.startswith("frame:"):
                continue
            if fnmatch.fnmatchcase(dotted, key) or fnmatch.fnmatchcase(dotted.split("[", 1)[0], key):
                if flaw.match is None or flaw.match(ev, av):
                    hit = flaw
                    break
        if hit is None:
            return None
        used = used or hit
    return used


async def check_frame(entry: dict) -> Result:
    name = entry.get("name", "?")
    try:
        frame = bytes.fromhex(entry["hex"])
    except Exception as e:
        return Result("frame", name, "FAIL", f"bad hex: {e}")
    expect = entry.get("expect", {})
    transport = entry.get("transport", "tcp")

    dispatcher = EventDispatcher()
    await dispatcher.start()
    reader = MessageReader(dispatcher)
    if transport == "serial":
        cx = SerialConnection("fake", 115200)
    else:
        cx = TCPConnection("fake", 0)
    cx.set_reader(reader)
    captured = []
    dispatcher.subscribe(None, captured.append)   # sync callback: receives event.clone()
    try:
        if entry.get("decrypt_channels"):
            reader.decrypt_channels = True
        for pb in entry.get("pending_binary", []):
            reader.register_binary_request(
                pb["pubkey_prefix"].lower(), pb["tag"].lower(),
                getattr(mc_packets.BinaryReqType, pb["request_type"]),
                float(pb.get("timeout", 60)), context=pb.get("context", {}),
                is_anon=bool(pb.get("is_anon", False)))
        for h in entry.get("context", []):
            await _deliver(transport, cx, reader, dispatcher, bytes.fromhex(h))
        captured.clear()
        LOGCAP.records.clear()
        await _deliver(transport, cx, reader, dispatcher, frame)
        logs = list(LOGCAP.records)
    finally:
        await dispatcher.stop()

    got_names = [e.type.name for e in captured]
    want_event = expect.get("event")
    problems: List[str] = []
    mismatches: List[tuple] = []

    if "events" in expect and got_names != expect["events"]:
        problems.append(f"event sequence {got_names} != {expect['events']}")

    if want_event in (None, "NONE"):
        if want_event == "NONE" and captured:
            problems.append(f"expected no event, got {got_names}")
    else:
        ev = next((e for e in captured if e.type.name == want_event), None)
        if ev is None:
            problems.append(f"no {want_event} event emitted (got {got_names or 'nothing'})"
                            + (f"; meshcore log: {logs[0]}" if logs else ""))
        else:
            compare(expect.get("payload", {}), ev.payload, "", mismatches)
            if "attributes" in expect:
                amis: List[tuple] = []
                compare(expect["attributes"], ev.attributes, "", amis)
                mismatches += [("@" + p, e, a) for p, e, a in amis]
            for k in expect.get("absent", []):
                if isinstance(ev.payload, dict) and k in ev.payload:
                    mismatches.append((k, MISSING, ev.payload[k]))

    if not problems and not mismatches:
        return Result("frame", name, "PASS")

    detail = "; ".join(problems + [f"{p or '<payload>'}: expected {_short(e)} got {_short(a)}"
                                   for p, e, a in mismatches])
    flaw = None if problems and "frame:" + name not in KNOWN_FLAWS else \
        _frame_known(name, want_event or "", mismatches)
    if flaw is not None:
        return Result("frame", name, "KNOWN", f"{flaw.label()}: {flaw.reason} [{detail}]")
    return Result("frame", name, "FAIL", detail)


# --------------------------------------------------------------------------------------
# Command checks
# --------------------------------------------------------------------------------------

def _u32(v):
    return struct.pack("<I", v)


def _sample_pubkey(seed: int = 1) -> bytes:
    return bytes((seed + i) & 0xFF for i in range(32))


def default_self_info() -> bytes:
    return (bytes([0x05, 1, 22, 22]) + _sample_pubkey(0x40) + struct.pack("<ii", 0, 0)
            + bytes([0, 0, 0, 0]) + struct.pack("<II", 869525, 250000) + bytes([10, 5]) + b"fake")


def default_device_info() -> bytes:
    f = bytes([0x0D, 13, 175, 40]) + _u32(0)
    f += b"14 Aug 2026".ljust(12, b"\0") + b"Fake Board".ljust(40, b"\0") + b"v1.17.1".ljust(20, b"\0")
    return f + bytes([0, 0])


def default_contact(pubkey: bytes) -> bytes:
    return (b"\x03" + pubkey.ljust(32, b"\0")[:32] + bytes([1, 0, 0xFF]) + bytes(64)
            + b"peer".ljust(32, b"\0") + _u32(1700000000) + struct.pack("<ii", 0, 0) + _u32(1700000000))


class FakeTransport:
    """asyncio-transport stand-in for TCPConnection: records writes, feeds replies back."""

    def __init__(self, cx: TCPConnection, replies: Optional[list]):
        self.cx = cx
        self.writes: List[bytes] = []
        self.header_errors: List[str] = []
        self.replies = replies
        self._tag = 0x10000000

    def is_closing(self):
        return False

    def close(self):
        pass

    def _sent(self) -> bytes:
        self._tag += 1
        return b"\x06\x00" + _u32(self._tag) + _u32(100)     # route flag 0, tag, 100 ms

    def default_reply(self, f: bytes) -> List[bytes]:
        c = f[0]
        if c == 0x01:
            return [default_self_info()]
        if c == 0x16:
            return [default_device_info()]
        if c in (0x02, 0x1A, 0x1B, 0x24, 0x32, 0x34, 0x39):
            return [self._sent()]
        if c == 0x27:
            return [self._sent()] if len(f) > 4 else [b"\x8b\x00" + _sample_pubkey(0x40)[:6]]
        if c == 0x04:
            return [b"\x02" + _u32(0), b"\x04" + _u32(0)]
        if c == 0x05:
            return [b"\x09" + _u32(1700000000)]
        if c == 0x0A:
            return [b"\x0a"]
        if c == 0x11:
            return [b"\x0b\x11\x00" + bytes(100)]
        if c == 0x13:
            return []
        if c == 0x14:
            return [b"\x0c" + struct.pack("<HII", 4000, 10, 100)]
        if c == 0x17:
            return [b"\x0f"]
        if c == 0x1E:
            return [default_contact(f[1:33])]
        if c == 0x1F:
            return [b"\x12" + bytes([f[1] if len(f) > 1 else 0]) + b"chan".ljust(32, b"\0") + bytes(16)]
        if c == 0x21:
            return [b"\x13\x00" + _u32(8192)]
        if c == 0x23:
            return [b"\x14" + bytes(64)]
        if c == 0x28:
            return [b"\x15"]
        if c == 0x2A:
            return [b"\x16" + _u32(1700000000) + b"\x00"]
        if c == 0x2B:
            return [b"\x17" + _u32(0) + _u32(0)]
        if c == 0x38:
            st = f[1] if len(f) > 1 else 0
            body = {0: bytes(9), 1: bytes(12), 2: bytes(28)}.get(st, b"")
            return [b"\x18" + bytes([st]) + body]
        if c == 0x3B:
            return [b"\x19\x00\x00"]
        if c == 0x3C:
            return [b"\x1a"]
        if c == 0x40:
            return [b"\x1c"]
        if c == 0x42:
            return [b"\x1dok"]
        return [b"\x00"]

    def write(self, pkt: bytes):
        pkt = bytes(pkt)
        if len(pkt) < 3 or pkt[0] != 0x3C or struct.unpack_from("<H", pkt, 1)[0] != len(pkt) - 3:
            self.header_errors.append(pkt[:3].hex())
        frame = pkt[3:]
        idx = len(self.writes)
        self.writes.append(frame)
        if self.replies is None:
            replies = self.default_reply(frame)
        elif idx < len(self.replies):
            r = self.replies[idx]
            replies = [bytes.fromhex(x) for x in (r if isinstance(r, list) else [r])]
        else:
            replies = self.default_reply(frame)
        loop = asyncio.get_running_loop()
        for r in replies:
            loop.call_soon(self.cx.handle_rx, framed(r))


@dataclass
class CmdCtx:
    ours: Any
    py: Any
    exc: Optional[BaseException]
    args: list
    kwargs: dict


def _cmd_known(name: str, call: str, ctx: CmdCtx) -> Optional[Flaw]:
    for key in (name, call):
        flaw = KNOWN_FLAWS.get(key)
        if flaw is None or key.startswith("frame:") or key.split(".", 1)[0].isupper():
            continue
        try:
            if flaw.match is None or flaw.match(ctx):
                return flaw
        except Exception:
            return None
    return None


async def check_command(entry: dict) -> Result:
    name = entry.get("name", "?")
    call = entry.get("call", "")
    try:
        hx = entry["hex"]
        ours = [bytes.fromhex(h) for h in hx] if isinstance(hx, list) else bytes.fromhex(hx)
    except Exception as e:
        return Result("command", name, "FAIL", f"bad hex: {e}")
    args = decode_arg(entry.get("args", []))
    kwargs = decode_arg(entry.get("kwargs", {}))

    cx = TCPConnection("fake", 0)
    mc = MeshCore(cx, default_timeout=CMD_DEFAULT_TIMEOUT)
    fake = FakeTransport(cx, entry.get("replies"))
    cx.transport = fake
    await mc.dispatcher.start()
    exc: Optional[BaseException] = None
    try:
        for h in entry.get("context", []):
            cx.handle_rx(framed(bytes.fromhex(h)))
            await _settle(cx, mc.dispatcher)
        fake.writes.clear()
        method = getattr(mc.commands, call, None)
        if method is None:
            return Result("command", name, "FAIL", f"meshcore_py has no command method {call!r}")
        if call == "confirm_factory_reset" and not args and "token" not in kwargs:
            args = [await mc.commands.request_factory_reset()]   # py-side two-step guard
        patches = []
        if "random" in entry:
            seq = list(entry["random"])

            def _fake_randint(a, b, _seq=seq):
                if not _seq:
                    raise RuntimeError("check entry ran out of 'random' values")
                return _seq.pop(0)
            patches.append(mock.patch("random.randint", side_effect=_fake_randint))
        if "time" in entry:
            patches.append(mock.patch("time.time", return_value=float(entry["time"])))
        for p in patches:
            p.start()
        try:
            await asyncio.wait_for(method(*args, **kwargs), timeout=CMD_HARD_TIMEOUT)
        except asyncio.TimeoutError as e:
            exc = e
        except Exception as e:   # meshcore_py raised while encoding
            exc = e
        finally:
            for p in reversed(patches):
                p.stop()
        await _settle(cx, mc.dispatcher)
    finally:
        await mc.dispatcher.stop()

    sent = list(fake.writes)
    if isinstance(ours, list):
        py: Any = sent
    else:
        py = sent[-1] if sent else None
    problems = []
    if fake.header_errors:
        problems.append(f"bad '<' header(s): {fake.header_errors}")
    if exc is not None:
        problems.append(f"meshcore_py raised {type(exc).__name__}: {exc}")
    if py != ours:
        if isinstance(ours, list):
            problems.append(f"frames differ: ours [{', '.join(b.hex() for b in ours)}] "
                            f"py [{', '.join(b.hex() for b in sent)}]")
        else:
            problems.append(f"ours {ours.hex()} py {py.hex() if py is not None else '<nothing sent>'}"
                            + (f" (py sent {len(sent)} frames; compared the last)" if len(sent) > 1 else ""))
    if not problems:
        return Result("command", name, "PASS")
    detail = "; ".join(problems)
    if fake.header_errors:
        return Result("command", name, "FAIL", detail)
    flaw = _cmd_known(name, call, CmdCtx(ours, py, exc, args, kwargs))
    if flaw is not None:
        return Result("command", name, "KNOWN", f"{flaw.label()}: {flaw.reason} [{detail}]")
    return Result("command", name, "FAIL", detail)


# --------------------------------------------------------------------------------------
# Self-test corpus: every hex below is built by hand from Docs/protocol.md §3-§5 layouts
# (struct.pack), independent of meshcore_py.
# --------------------------------------------------------------------------------------

def advert_card(pk: bytes) -> bytes:
    """ADVERT payload: pubkey, u32 timestamp, 64-byte signature (zeros here), appdata
    (flags 0x91 = chat | has-location | has-name, i32 lat/lon x1e6, name)."""
    return pk + struct.pack("<I", 1700000600) + bytes(64) + bytes([0x91]) + struct.pack("<ii", 52520000, 13405000) + b"Node"


def build_selftest() -> dict:
    P = struct.pack
    pk = bytes(range(0xA0, 0xC0))                 # 32-byte pubkey a0a1..bf
    pkh = pk.hex()
    pk2 = bytes(range(0x10, 0x30))
    frames = []
    cmds = []

    def fr(name, frame: bytes, event, payload=None, **extra):
        e = {"name": name, "hex": frame.hex(), "expect": {"event": event, "payload": payload or {}}}
        for k in ("attributes", "absent", "events"):
            if k in extra:
                e["expect"][k] = extra.pop(k)
        e.update(extra)
        frames.append(e)

    # §4.2 SELF_INFO
    self_info = (bytes([0x05, 1, 22, 30]) + pk + P("<ii", 47123456, -122654321) + bytes([1, 1, 0x25, 1])
                 + P("<II", 869525, 250000) + bytes([10, 5]) + "Nodé-1".encode())
    fr("self_info", self_info, "SELF_INFO", {
        "adv_type": 1, "tx_power": 22, "max_tx_power": 30, "public_key": pkh.upper(),
        "adv_lat": 47.123456, "adv_lon": -122.654321, "multi_acks": 1, "adv_loc_policy": 1,
        "telemetry_mode_base": 1, "telemetry_mode_loc": 1, "telemetry_mode_env": 2,
        "manual_add_contacts": True, "radio_freq": 869.525, "radio_bw": 250.0,
        "radio_sf": 10, "radio_cr": 5, "name": "Nodé-1"})
    neg = bytearray(self_info)
    neg[2] = 0xF7                                  # -9 dBm (i8 since 1.13.0)
    fr("self_info.negative_tx_power", bytes(neg), "SELF_INFO", {"tx_power": -9})

    # §4.1 contact record inside a GET_CONTACTS stream
    path = bytes([0xAA, 0x00, 0xBB, 0xCC]) + bytes(60)          # 2 hops x 2-byte hashes, contains 0x00
    contact = (b"\x03" + pk2 + bytes([2, 0x03, 0x42]) + path + b"Rpt-\xc3\xa9".ljust(32, b"\0")
               + P("<IiiI", 1700000100, -33868800, 151209300, 1700000200))
    assert len(contact) == 148
    start = b"\x02" + P("<I", 1)
    fr("contact.in_stream", contact, "NEXT_CONTACT", {
        "public_key": pk2.hex(), "type": 2, "flags": 3, "out_path_len": 2, "out_path_hash_mode": 1,
        "out_path": "aa00bbcc", "adv_name": "Rpt-é", "last_advert": 1700000100,
        "adv_lat": -33.8688, "adv_lon": 151.2093, "lastmod": 1700000200}, context=[start.hex()])
    fr("contacts.end", b"\x04" + P("<I", 1700000200), "CONTACTS",
       {pk2.hex(): {"adv_name": "Rpt-é", "out_path": "aa00bbcc"}},
       attributes={"lastmod": 1700000200}, context=[start.hex(), contact.hex()])
    flood = bytearray(contact)
    flood[35] = 0xFF
    fr("contact.flood", bytes(flood), "NEXT_CONTACT",
       {"out_path_len": -1, "out_path_hash_mode": -1, "out_path": ""}, context=[start.hex()])
    fr("contacts_start.no_event", start, "NONE")
    new_adv = b"\x8a" + contact[1:]
    fr("push.new_advert", new_adv, "NEW_CONTACT", {"public_key": pk2.hex(), "adv_name": "Rpt-é"})

    # §4.3 / §4.4 messages
    fr("msg.contact_v3_signed",
       bytes([0x10, 0xEA, 0, 0]) + pk[:6] + bytes([0x02, 0x02]) + P("<I", 1700000300) + b"\xde\xad\xbe\xef" + b"hello",
       "CONTACT_MSG_RECV", {"type": "PRIV", "SNR": -5.5, "pubkey_prefix": pk[:6].hex(), "path_len": 2,
                            "path_hash_mode": 0, "txt_type": 2, "sender_timestamp": 1700000300,
                            "signature": "DEADBEEF", "text": "hello"},
       attributes={"pubkey_prefix": pk[:6].hex(), "txt_type": 2})
    fr("msg.contact_legacy_direct",
       b"\x07" + pk[:6] + bytes([0xFF, 0x00]) + P("<I", 1700000301) + b"yo",
       "CONTACT_MSG_RECV", {"path_len": 255, "path_hash_mode": -1, "txt_type": 0, "text": "yo"},
       absent=["signature", "SNR"])
    fr("msg.channel_v3", bytes([0x11, 0x1C, 0, 0, 3, 0x43, 0]) + P("<I", 1700000302) + b"Bob: hi",
       "CHANNEL_MSG_RECV", {"type": "CHAN", "SNR": 7.0, "channel_idx": 3, "path_len": 3,
                            "path_hash_mode": 1, "txt_type": 0, "sender_timestamp": 1700000302, "text": "Bob: hi"})
    fr("msg.channel_legacy", bytes([0x08, 0, 0xFF, 0]) + P("<I", 1700000303) + b"Al: x",
       "CHANNEL_MSG_RECV", {"channel_idx": 0, "path_len": 255, "path_hash_mode": -1, "text": "Al: x"})
    fr("msg.channel_data", bytes([0x1B, 0xF8, 0, 0, 1, 0xFF]) + P("<HB", 0xFFFF, 3) + b"\x01\x02\x03",
       "CHANNEL_DATA_RECV", {"type": "DATA", "SNR": -2.0, "channel_idx": 1, "path_len": 255,
                             "data_type": 65535, "data_len": 3, "payload": "010203"})

    # §4 misc responses
    fr("resp.sent", b"\x06\x01" + b"\x11\x22\x33\x44" + P("<I", 9400), "MSG_SENT",
       {"type": 1, "expected_ack": "11223344", "suggested_timeout": 9400},
       attributes={"expected_ack": "11223344", "type": 1})
    fr("resp.err", b"\x01\x06", "ERROR", {"error_code": 6, "code_string": "ERR_CODE_ILLEGAL_ARG"})
    fr("resp.ok", b"\x00", "OK", {}, absent=["value"])
    dev = (bytes([0x0D, 13, 175, 40]) + P("<I", 123456) + b"14 Aug 2026".ljust(12, b"\0")
           + b"RAK 4631".ljust(40, b"\0") + b"v1.17.1".ljust(20, b"\0") + bytes([1, 2]))
    assert len(dev) == 82
    fr("resp.device_info_v13", dev, "DEVICE_INFO", {
        "fw ver": 13, "max_contacts": 350, "max_channels": 40, "ble_pin": 123456, "fw_build": "14 Aug 2026",
        "model": "RAK 4631", "ver": "v1.17.1", "repeat": True, "path_hash_mode": 2})
    fr("resp.battery", b"\x0c" + P("<HII", 4012, 128, 1024), "BATTERY",
       {"level": 4012, "used_kb": 128, "total_kb": 1024})
    fr("resp.stats_radio", bytes([0x18, 1]) + P("<hbbII", -110, -90, 29, 3600, 7200), "STATS_RADIO",
       {"noise_floor": -110, "last_rssi": -90, "last_snr": 7.25, "tx_air_secs": 3600, "rx_air_secs": 7200})
    public = bytes.fromhex("8b3387e9c5cdea6ac9e5edbaa115cd72")
    fr("resp.channel_info", b"\x12\x00" + b"Public".ljust(32, b"\0") + public, "CHANNEL_INFO",
       {"channel_idx": 0, "channel_name": "Public", "channel_secret": public.hex(), "channel_hash": "11"})
    fr("resp.tuning", b"\x17" + P("<II", 500, 1000), "TUNING_PARAMS", {"rx_delay": 500, "airtime_factor": 1000})
    fr("resp.advert_path", b"\x16" + P("<I", 1700000400) + bytes([0x42, 1, 2, 3, 4]), "ADVERT_PATH",
       {"timestamp": 1700000400, "path_len": 2, "path_hash_mode": 1, "path": "01020304"})
    fr("resp.private_key", b"\x0e" + bytes(range(64)), "PRIVATE_KEY", {"private_key": bytes(range(64)).hex()})
    fr("resp.default_scope_none", b"\x1c", "DEFAULT_FLOOD_SCOPE", {}, absent=["scope_name", "scope_key"])
    fr("resp.custom_vars", b"\x15gps:1,gps_interval:60", "CUSTOM_VARS", {"gps": "1", "gps_interval": "60"})
    fr("resp.curr_time", b"\x09" + P("<I", 1700000700), "CURRENT_TIME", {"time": 1700000700})
    fr("resp.no_more_messages", b"\x0a", "NO_MORE_MSGS", {"messages_available": False})
    card = bytes([0x11, 0x00]) + advert_card(pk)
    fr("resp.export_contact", b"\x0b" + card, "CONTACT_URI", {"uri": "meshcore://" + card.hex().upper()})
    fr("resp.disabled", b"\x0f", "DISABLED", {"reason": "private_key_export_disabled"})
    fr("resp.sign_start", b"\x13\x00" + P("<I", 8192), "SIGN_START", {"max_length": 8192})
    fr("resp.signature", b"\x14" + bytes(range(64, 128)), "SIGNATURE", {"signature": bytes(range(64, 128)).hex()})
    fr("resp.stats_core", bytes([0x18, 0]) + P("<HIHB", 4100, 86400, 0x0003, 2), "STATS_CORE",
       {"battery_mv": 4100, "uptime_secs": 86400, "errors": 3, "queue_len": 2})
    fr("resp.stats_packets", bytes([0x18, 2]) + P("<7I", 10, 20, 5, 15, 6, 4, 1), "STATS_PACKETS",
       {"recv": 10, "sent": 20, "flood_tx": 5, "direct_tx": 15, "flood_rx": 6, "direct_rx": 4, "recv_errors": 1})
    fr("resp.stats_packets_legacy", bytes([0x18, 2]) + P("<6I", 10, 20, 5, 15, 6, 4), "STATS_PACKETS",
       {"recv": 10, "recv_errors": None})
    fr("resp.autoadd_config", b"\x19\x0e\x03", "AUTOADD_CONFIG", {"config": 14, "max_hops": 3},
       attributes={"config": 14, "max_hops": 3})
    fr("resp.allowed_repeat_freq", b"\x1a" + P("<6I", 433000, 433000, 869495, 869495, 918000, 918000),
       "ALLOWED_REPEAT_FREQ", {"freqs": [{"min": 433000, "max": 433000}, {"min": 869495, "max": 869495},
                                         {"min": 918000, "max": 918000}]})
    scope_key = hashlib.sha256(b"#eu").digest()[:16]
    fr("resp.default_scope", b"\x1c" + b"#eu".ljust(31, b"\0") + scope_key, "DEFAULT_FLOOD_SCOPE",
       {"scope_name": "#eu", "scope_key": scope_key.hex()})
    garbage = bytearray(contact)
    garbage[100:132] = b"Bob\0old-name".ljust(32, b"\0")        # stale bytes after the NUL
    fr("contact.name_after_nul", bytes(garbage), "NEXT_CONTACT", {"adv_name": "Bob"},
       context=[start.hex()])                                      # py gives "Bobold-name" -> KNOWN

    # §5 pushes
    fr("push.advert", b"\x80" + pk, "ADVERTISEMENT", {"public_key": pkh})
    fr("push.ack", b"\x82" + b"\x11\x22\x33\x44" + P("<I", 1234), "ACK", {"code": "11223344", "trip_time": 1234},
       attributes={"code": "11223344"})
    fr("push.msg_waiting", b"\x83", "MESSAGES_WAITING", {})
    fr("push.login_success", bytes([0x85, 1]) + pk[:6] + P("<I", 1700000500) + bytes([3, 2]), "LOGIN_SUCCESS",
       {"permissions": 1, "is_admin": True, "pubkey_prefix": pk[:6].hex(), "server_timestamp": 1700000500,
        "acl_permissions": 3, "fw_ver_level": 2})
    trace = (bytes([0x89, 0, 2, 0]) + P("<II", 0x11223344, 7) + bytes([0x5F, 0xA3]) + bytes([40, 0xEC]) + bytes([12]))
    fr("push.trace", trace, "TRACE_DATA", {"tag": 0x11223344, "auth": 7, "flags": 0, "path_len": 2, "path": [
        {"hash": "5f", "snr": 10.0}, {"hash": "a3", "snr": -5.0}, {"snr": 3.0}]})
    fr("push.trace_zero_hops", bytes([0x89, 0, 0, 0]) + P("<II", 5, 0) + bytes([12]), "TRACE_DATA",
       {"tag": 5, "path_len": 0, "path": [{"snr": 3.0}]})   # py omits 'path' -> KNOWN
    status = P("<HHhhIIIIIIIIHhHHI", 4100, 2, -112, -80, 1000, 900, 60, 86400, 10, 20, 30, 40, 1, 26, 3, 4, 120)
    assert len(status) == 52
    fr("push.binary_status", b"\x8c\x00" + b"\xaa\xbb\xcc\xdd" + status, "STATUS_RESPONSE",
       {"pubkey_pre": pk[:6].hex(), "bat": 4100, "tx_queue_len": 2, "noise_floor": -112, "last_rssi": -80,
        "nb_recv": 1000, "nb_sent": 900, "airtime": 60, "uptime": 86400, "sent_flood": 10, "sent_direct": 20,
        "recv_flood": 30, "recv_direct": 40, "full_evts": 1, "last_snr": 6.5, "direct_dups": 3, "flood_dups": 4,
        "rx_airtime": 120, "recv_errors": None},
       attributes={"tag": "aabbccdd"}, events=["BINARY_RESPONSE", "STATUS_RESPONSE"],
       pending_binary=[{"tag": "aabbccdd", "request_type": "STATUS", "pubkey_prefix": pk[:6].hex()}])
    fr("push.binary_untracked", b"\x8c\x00" + b"\x01\x02\x03\x04" + b"\x99\x98", "BINARY_RESPONSE",
       {"tag": "01020304", "data": "9998"}, events=["BINARY_RESPONSE"])
    # CayenneLPP (big-endian): ch1 temperature 25.0 C, ch2 GPS 47.1234/-122.6543/123.45 m, ch3 voltage 3.33 V
    lpp = (bytes([1, 103]) + P(">h", 250) + bytes([2, 136]) + P(">i", 471234)[1:] + P(">i", -1226543 & 0xFFFFFF)[1:]
           + P(">i", 12345)[1:] + bytes([3, 116]) + P(">H", 333))
    fr("push.telemetry", b"\x8b\x00" + pk[:6] + lpp, "TELEMETRY_RESPONSE", {"pubkey_pre": pk[:6].hex(), "lpp": [
        {"channel": 1, "type": "temperature", "value": 25.0},
        {"channel": 2, "type": "gps", "value": {"latitude": 47.1234, "longitude": -122.6543, "altitude": 123.45}},
        {"channel": 3, "type": "voltage", "value": 3.33}]},
       attributes={"pubkey_prefix": pk[:6].hex(), "raw": lpp.hex()})
    fr("push.path_discovery", b"\x8d\x00" + pk[:6] + bytes([0x41, 0x12, 0x34, 0x02, 0x56, 0x78]), "PATH_RESPONSE",
       {"pubkey_pre": pk[:6].hex(), "out_path_len": 1, "out_path_hash_len": 2, "out_path": "1234",
        "in_path_len": 2, "in_path_hash_len": 1, "in_path": "5678"})
    disc = bytes([0x92, 0x24]) + P("<I", 0xCAFEBABE) + pk[:8]
    fr("push.control_discover", bytes([0x8E, 0x18, 0xB0, 0x00]) + disc, "DISCOVER_RESPONSE",
       {"SNR": 6.0, "RSSI": -80, "path_len": 0, "node_type": 2, "SNR_in": 9.0,
        "tag": P("<I", 0xCAFEBABE).hex(), "pubkey": pk[:8].hex()},
       events=["CONTROL_DATA", "DISCOVER_RESPONSE"])
    fr("push.control_plain", bytes([0x8E, 0xF4, 0xC4, 0x00, 0x81, 0x04]) + P("<I", 9), "CONTROL_DATA",
       {"SNR": -3.0, "RSSI": -60, "path_len": 0, "payload_type": 0x81, "payload": "8104" + P("<I", 9).hex()},
       attributes={"payload_type": 0x81}, events=["CONTROL_DATA"])
    fr("push.path_updated", b"\x81" + pk, "PATH_UPDATE", {"public_key": pkh}, attributes={"public_key": pkh})
    fr("push.raw_data", bytes([0x84, 0x14, 0xB5, 0xFF]) + b"\xde\xad\xbe\xef", "RAW_DATA",
       {"SNR": 5.0, "RSSI": -75, "payload": "deadbeef"})
    fr("push.login_fail", bytes([0x86, 0]) + pk[:6], "LOGIN_FAILED", {"pubkey_prefix": pk[:6].hex()},
       attributes={"pubkey_prefix": pk[:6].hex()})
    fr("push.status_response", bytes([0x87, 0]) + pk[:6] + status + P("<I", 9), "STATUS_RESPONSE",
       {"pubkey_pre": pk[:6].hex(), "bat": 4100, "uptime": 86400, "last_snr": 6.5, "rx_airtime": 120,
        "recv_errors": 9}, attributes={"pubkey_prefix": pk[:6].hex()})
    fr("push.contact_deleted", b"\x8f" + pk, "CONTACT_DELETED", {"pubkey": pkh})
    fr("push.contacts_full", b"\x90", "CONTACTS_FULL", {})
    # §5 0x88 RX log: flood ADVERT (header 0x11 = route FLOOD(1) | type ADVERT(4)<<2), no path
    raw = bytes([0x11, 0x00]) + advert_card(pk)
    fr("push.rx_log_advert", bytes([0x88, 0x28, 0xA6]) + raw, "RX_LOG_DATA", {
        "snr": 10.0, "rssi": -90, "raw_hex": (bytes([0x28, 0xA6]) + raw).hex(), "payload": raw.hex(),
        "payload_length": len(raw), "header": 0x11, "route_type": 1, "route_typename": "FLOOD",
        "payload_type": 4, "payload_typename": "ADVERT", "payload_ver": 0, "path_len": 0, "path_hash_size": 1,
        "path": "", "adv_key": pkh, "adv_timestamp": 1700000600, "adv_type": 1, "adv_flags": 0x91,
        "adv_lat": 52.52, "adv_lon": 13.405, "adv_name": "Node"})

    # ---- commands (§3) -------------------------------------------------------------
    def cm(name, call, frame, args=None, kwargs=None, **extra):
        e = {"name": name, "call": call, "args": args or [], "kwargs": kwargs or {},
             "hex": [f.hex() for f in frame] if isinstance(frame, list) else frame.hex()}
        e.update(extra)
        cmds.append(e)

    cm("app_start", "send_appstart", b"\x01\x03" + b" " * 6 + b"mccli")
    cm("device_query", "send_device_query", b"\x16\x03")
    cm("send_txt_msg", "send_msg", b"\x02\x00\x00" + P("<I", 1700000000) + pk[:6] + b"hi",
       [pkh, "hi"], {"timestamp": 1700000000})
    cm("send_txt_msg.default_time", "send_msg", b"\x02\x00\x00" + P("<I", 1700000001) + pk[:6] + b"x",
       [pkh, "x"], time=1700000001)
    cm("send_channel_txt_msg", "send_chan_msg", b"\x03\x00\x02" + P("<I", 1700000000) + b"hello",
       [2, "hello", 1700000000])
    cm("get_contacts.since", "get_contacts", b"\x04" + P("<I", 1700000000), [], {"lastmod": 1700000000})
    cm("get_contacts.all", "get_contacts", b"\x04")
    cm("set_device_time", "set_time", b"\x06" + P("<I", 1700000000), [1700000000])
    cm("send_self_advert.flood", "send_advert", b"\x07\x01", [], {"flood": True})
    cm("set_advert_name", "set_name", b"\x08" + "Nodé".encode(), ["Nodé"])
    cm("set_radio_params", "set_radio", b"\x0b" + P("<II", 869525, 250000) + bytes([10, 5]), [869.525, 250, 10, 5])
    cm("set_radio_params.repeat", "set_radio", b"\x0b" + P("<II", 433175, 62500) + bytes([9, 8, 1]),
       [433.175, 62.5, 9, 8], {"repeat": 1})
    cm("set_advert_latlon", "set_coords", b"\x0e" + P("<iii", 47123456, -122654321, 0), [47.123456, -122.654321])
    cm("set_advert_latlon.rounding", "set_coords", b"\x0e" + P("<iii", -132591998, 0, 0), [-132.591998, 0.0])
    cm("reset_path", "reset_path", b"\x0d" + pk, [pkh])
    cm("remove_contact", "remove_contact", b"\x0f" + pk, [pkh])
    cm("share_contact", "share_contact", b"\x10" + pk, [pkh])
    cm("export_contact.self", "export_contact", b"\x11")
    cm("reboot", "reboot", b"\x13reboot")
    cm("get_batt_and_storage", "get_bat", b"\x14")
    cm("set_tuning_params", "set_tuning", b"\x15" + P("<II", 500, 1000), [500, 1000])     # KNOWN (extra 2 bytes)
    cm("set_tx_power", "set_tx_power", b"\x0c\x16", [22])                                # KNOWN meshcore_py gap
    cm("set_tx_power.negative", "set_tx_power", b"\x0c\xf7", [-9])                       # KNOWN meshcore_py gap
    cm("has_connection", "has_connection", b"\x1c" + pk)                                 # KNOWN meshcore_py gap
    cm("factory_reset", "confirm_factory_reset", b"\x33reset")                           # KNOWN meshcore_py gap
    cm("set_advert_name.long", "set_name", b"\x08" + b"N" * 31, ["N" * 40])                    # KNOWN
    cm("set_channel.long_name", "set_channel", b"\x20\x02" + b"C" * 31 + b"\0" + public,
       [2, "C" * 40, {"$bytes": public.hex()}])                                        # KNOWN
    cm("get_channel", "get_channel", b"\x1f\x03", [3])
    cm("set_channel.hashtag", "set_channel", b"\x20\x01" + b"#test".ljust(32, b"\0")
       + bytes.fromhex("9cd8fcf22a47333b591d96a2b848b73f"), [1, "#test"])
    cm("set_channel.secret", "set_channel", b"\x20\x00" + b"Public".ljust(32, b"\0") + public,
       [0, "Public", {"$bytes": public.hex()}])
    cm("send_trace", "send_trace", b"\x24" + P("<II", 0x11223344, 0) + b"\x00\x5f\xa3", [],
       {"auth_code": 0, "tag": 0x11223344, "path": "5f,a3"})
    cm("set_device_pin", "set_devicepin", b"\x25" + P("<I", 123456), [123456])
    cm("send_telemetry_req.self", "get_self_telemetry", b"\x27\x00\x00\x00")
    cm("get_advert_path", "get_advert_path", b"\x2a\x00" + pk, [pkh])
    cm("send_binary_req.status", "req_status_sync", b"\x32" + pk + b"\x01", [pkh])
    cm("send_binary_req.neighbours", "req_neighbours_async",
       b"\x32" + pk + b"\x06" + bytes([0, 255]) + P("<HBB", 0, 0, 4) + P("<I", 0xDEADBEEF), [pkh],
       random=[0xDEADBEEF])
    cm("send_path_discovery", "send_path_discovery", b"\x34\x00" + pk, [pkh])
    cm("send_login", "send_login", b"\x1a" + pk + b"secret", [pkh, "secret"])
    cm("send_anon_req.basic", "req_basic_async", b"\x39" + pk + b"\x03\x00", [pkh])
    cm("set_flood_scope.name", "set_flood_scope", b"\x36\x00" + hashlib.sha256(b"#test").digest()[:16], ["test"])
    cm("set_flood_scope.clear", "reset_flood_scope", b"\x36\x00")
    cm("send_control_data.discover", "send_node_discover_req", b"\x37\x81\x04" + P("<I", 0x01020304),
       [4], {"prefix_only": True, "tag": 0x01020304})
    cm("get_stats.radio", "get_stats_radio", b"\x38\x01")
    cm("set_autoadd_config", "set_autoadd_config", b"\x3a\x0e", [0x0E])
    cm("set_path_hash_mode", "set_path_hash_mode", b"\x3d\x00\x01", [1])
    cm("send_channel_data.flood", "send_channel_data", b"\x3e\x02\xff" + P("<H", 0xFFFF) + b"\x01\x02\x03\x04",
       [2, 0xFFFF, {"$bytes": "01020304"}])
    cm("send_channel_data.165_bytes", "send_channel_data", b"\x3e\x02\xff" + P("<H", 0x0100) + bytes(165),
       [2, 0x0100, {"$bytes": bytes(165).hex()}])                                      # KNOWN §10 #4
    cm("send_raw_data", "send_raw_data", b"\x19\x00\x01\x02\x03\x04", [{"$bytes": "01020304"}])
    contact_dict = {"public_key": pk2.hex(), "type": 2, "flags": 3, "out_path_len": 2, "out_path_hash_mode": 1,
                    "out_path": "aa00bbcc", "adv_name": "Rpt", "last_advert": 1700000100,
                    "adv_lat": -33.8688, "adv_lon": 151.2093, "lastmod": 1700000200}
    add = (b"\x09" + pk2 + bytes([2, 3, 0x42]) + bytes.fromhex("aa00bbcc") + bytes(60) + b"Rpt".ljust(32, b"\0")
           + P("<Iii", 1700000100, -33868800, 151209300))
    cm("add_update_contact", "add_contact", add + P("<I", 1700000200), [contact_dict])   # KNOWN (no lastmod)
    cm("send_msg_with_retry", "send_msg_with_retry",
       [b"\x02\x00" + bytes([a]) + P("<I", 1700000000) + pk[:6] + b"r" for a in (0, 1)]
       + [b"\x0d" + pk]
       + [b"\x02\x00\x02" + P("<I", 1700000000) + pk[:6] + b"r"],
       [pkh, "r"], {"timestamp": 1700000000})
    # remaining command methods, one each (bytes from Docs/protocol.md §3)
    cm("sync_next_message", "get_msg", b"\x0a")
    cm("get_device_time", "get_time", b"\x05")
    cm("send_self_advert.zero_hop", "send_advert", b"\x07")
    cm("export_contact.key", "export_contact", b"\x11" + pk, [pkh])
    cm("import_contact", "import_contact", b"\x12" + card, [{"$bytes": card.hex()}])
    cm("export_private_key", "export_private_key", b"\x17")
    cm("import_private_key", "import_private_key", b"\x18" + bytes(range(64)), [{"$bytes": bytes(range(64)).hex()}])
    cm("send_status_req", "send_statusreq", b"\x1b" + pk, [pkh])
    cm("logout", "send_logout", b"\x1d" + pk, [pkh])
    cm("get_contact_by_key", "get_contact_by_key", b"\x1e" + pk, [{"$bytes": pkh}])
    cm("sign", "sign", [b"\x21", b"\x22" + b"abc", b"\x22" + b"de", b"\x23"], [{"$bytes": b"abcde".hex()}],
       {"chunk_size": 3})
    cm("set_other_params", "set_other_params", b"\x26\x01\x25\x01", [True, 1, 1, 2, 1])
    cm("set_other_params.multi_acks", "set_multi_acks", [b"\x01\x03" + b" " * 6 + b"mccli", b"\x26\x00\x00\x00\x01"],
       [1])
    cm("send_telemetry_req.remote", "send_telemetry_req", b"\x27\x00\x00\x00" + pk, [pkh])
    cm("get_custom_vars", "get_custom_vars", b"\x28")
    cm("set_custom_var", "set_custom_var", b"\x29gps:1", ["gps", "1"])
    cm("get_tuning_params", "get_tuning", b"\x2b")
    cm("send_binary_req.acl", "req_acl_sync", b"\x32" + pk + b"\x05\x00\x00", [pkh])
    cm("send_binary_req.mma", "req_mma_sync", b"\x32" + pk + b"\x04" + P("<II", 100, 200) + b"\x00\x00",
       [pkh, 100, 200])
    cm("send_binary_req.telemetry", "req_telemetry_sync", b"\x32" + pk + b"\x03", [pkh])
    cm("send_anon_req.regions", "req_regions_async", b"\x39" + pk + b"\x01\x00", [pkh])
    cm("send_anon_req.owner", "req_owner_async", b"\x39" + pk + b"\x02\x00", [pkh])
    # known contact with a 2-hop, 2-byte-hash path: reply path = hops reversed per hop, mode in bits 6-7
    cm("send_anon_req.known_contact", "req_basic_async", b"\x39" + pk2 + b"\x03" + bytes([0x42, 0xBB, 0xCC, 0xAA, 0x00]),
       [pk2.hex()], context=[start.hex(), contact.hex(), (b"\x04" + P("<I", 1700000200)).hex()])
    cm("send_control_data", "send_control_data", b"\x37\x80\x04\x01\x00\x00\x00", [0x80, {"$bytes": "0401000000"}])
    cm("get_stats.core", "get_stats_core", b"\x38\x00")
    cm("get_stats.packets", "get_stats_packets", b"\x38\x02")
    cm("get_autoadd_config", "get_autoadd_config", b"\x3b")
    cm("get_allowed_repeat_freq", "get_allowed_repeat_freq", b"\x3c")
    cm("send_channel_data.path", "send_channel_data", b"\x3e\x01\x41\x12\x34" + P("<H", 0x0100) + b"\x05",
       [1, 0x0100, {"$bytes": "05"}], {"path": {"$bytes": "1234"}, "path_hash_mode": 1})
    cm("set_default_flood_scope", "set_default_flood_scope", b"\x3f" + b"#eu".ljust(31, b"\0") + scope_key, ["eu"])
    cm("set_default_flood_scope.clear", "reset_default_flood_scope", b"\x3f")         # KNOWN (TypeError)
    cm("set_flood_scope.none", "set_flood_scope", b"\x36\x00", [None])                # KNOWN (16 zero bytes)
    cm("set_flood_scope.unscoped", "force_unscoped", b"\x36\x01")
    cm("get_default_flood_scope", "get_default_flood_scope", b"\x40")
    cm("send_raw_packet", "send_raw_packet", b"\x41\x01" + raw[:10], [raw[:10].hex()], {"priority": 1})
    cm("send_cli_cmd.repeater", "send_cmd", b"\x02\x01\x00" + P("<I", 1700000000) + pk[:6] + b"ver",
       [pkh, "ver", 1700000000])
    cm("send_cli_cmd.chat", "send_cmd", b"\x02\x01\x00" + P("<I", 1700000000) + pk[:6] + b"ver",
       [pkh, "ver", 1700000000], {"dst_type": 1})                                    # KNOWN (txt_type 3)
    cm("change_contact_path", "change_contact_path",
       [b"\x16\x03", add[:35] + bytes([0x03, 0x01, 0x02, 0x03]) + bytes(61) + add[100:]],
       [contact_dict, "010203"])                                                      # device query first
    return {"frames": frames, "commands": cmds}


# --------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------

async def run_all(doc: dict) -> List[Result]:
    results = []
    for f in doc.get("frames", []):
        results.append(await check_frame(f))
    for c in doc.get("commands", []):
        results.append(await check_command(c))
    return results


async def negative_controls() -> List[Result]:
    """Prove the comparison actually detects disagreements (selftest only)."""
    out = []
    r = await check_frame({"name": "neg", "hex": "82" + "11223344" + "d2040000",
                           "expect": {"event": "ACK", "payload": {"code": "11223345", "trip_time": 1234}}})
    out.append(Result("meta", "negative_control.frame", "PASS" if r.status == "FAIL" else "FAIL",
                      "" if r.status == "FAIL" else f"wrong value was not detected ({r.status})"))
    r = await check_command({"name": "neg", "call": "send_device_query", "hex": "1602"})
    out.append(Result("meta", "negative_control.command", "PASS" if r.status == "FAIL" else "FAIL",
                      "" if r.status == "FAIL" else f"wrong bytes were not detected ({r.status})"))
    r = await check_command({"name": "neg", "call": "set_tx_power", "hex": "0c17", "args": [22]})
    out.append(Result("meta", "negative_control.known_flaw_is_narrow", "PASS" if r.status == "FAIL" else "FAIL",
                      "" if r.status == "FAIL" else f"unrelated difference excused as known flaw ({r.status})"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="?", help="export JSON produced by the Swift exporter")
    ap.add_argument("--selftest", action="store_true", help="run the built-in hand-computed corpus")
    ap.add_argument("--dump-selftest", metavar="PATH", help="write the built-in corpus as JSON and exit")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only FAIL/KNOWN lines and the summary")
    ns = ap.parse_args(argv)

    if ns.dump_selftest:
        with open(ns.dump_selftest, "w", encoding="utf-8") as fh:
            json.dump(build_selftest(), fh, indent=1, ensure_ascii=False)
        return 0
    if ns.selftest:
        doc = build_selftest()
    elif ns.json:
        try:
            with open(ns.json, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError) as e:
            print(f"cannot read {ns.json}: {e}", file=sys.stderr)
            return 2
    else:
        ap.print_usage(sys.stderr)
        return 2

    try:
        version = metadata.version("meshcore")
    except metadata.PackageNotFoundError:  # pragma: no cover
        version = "?"
    print(f"# meshcore_py {version}" + ("" if version == TESTED_VERSION else
                                        f" (WARNING: script written against {TESTED_VERSION})"))

    async def go():
        res = await run_all(doc)
        if ns.selftest:
            res += await negative_controls()
        return res

    t0 = time.perf_counter()
    results = asyncio.run(go())
    passed = sum(r.status in ("PASS", "KNOWN") for r in results)
    failed = sum(r.status == "FAIL" for r in results)
    known = sum(r.status == "KNOWN" for r in results)
    for r in results:
        if ns.quiet and r.status == "PASS":
            continue
        line = f"{r.status} {r.kind} {r.name}"
        if r.detail:
            line += f": {r.detail}"
        print(line)
    print(f"# {known} of the passed checks are known flaws; {time.perf_counter() - t0:.2f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
