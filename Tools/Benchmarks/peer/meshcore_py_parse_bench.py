#!/usr/bin/env python3
"""meshcore_py peer for the Meshport codec benchmark.

Usage:
    .venv/bin/python Tools/Benchmarks/peer/meshcore_py_parse_bench.py CORPUS [--min-seconds 2.0]
                     [--transport serial|tcp] [--chunk 64]
    .venv/bin/python Tools/Benchmarks/peer/meshcore_py_parse_bench.py --make-sample-corpus PATH

CORPUS: one radio->app frame per line, lowercase hex, code byte first, no '>' header.
Blank lines and lines starting with '#' are ignored.

Measures, in-process, against the installed meshcore package (imported, not copied):

  decode   the real meshcore.reader.MessageReader.handle_rx for every corpus frame, with a
           real meshcore.events.EventDispatcher (queue + dispatch loop + one catch-all sync
           subscriber, so every event is cloned and delivered exactly as for an application
           subscriber). The dispatcher queue is drained (queue.join) after every pass over
           the corpus and that time is included.
  framing  the real SerialConnection.handle_rx (or TCPConnection.handle_rx, same algorithm)
           reassembling the stream '>' + u16 LE length + frame for the whole corpus, fed in
           --chunk byte pieces (64 by default). Each completed frame is handed, as in the
           library, to reader.handle_rx via asyncio.create_task; the reader here is a stub
           that only counts frames and bytes. Tasks are awaited inside the timed region.
  framing_no_dispatch  (extra) the same handle_rx with no reader attached, i.e. header
           scanning and reassembly only, without the per-frame asyncio task.

Each measurement is calibrated so that three timed runs take at least --min-seconds together
(default 2 s; extra runs are added if they fall short) and reports the best (fastest) run.
MB/s uses MB = 1e6 bytes; decode counts frame bytes, framing counts stream bytes
(3-byte headers included).

Prints exactly one JSON object on stdout:
  {"decode": {"frames_per_s", "mb_per_s", "frames", ...},
   "framing": {"frames_per_s", "mb_per_s", "frames", ...},
   "framing_no_dispatch": {...}, "meshcore_version": "...", "python": "..."}
Exit status 1 if the sanity checks fail (frame/event counts, framer state, or meshcore
logging a parse error -- the latter can be waived with --allow-parse-errors).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import platform
import struct
import sys
import time
from importlib import metadata
from typing import List

from meshcore.events import EventDispatcher
from meshcore.reader import MessageReader
from meshcore.serial_cx import SerialConnection
from meshcore.tcp_cx import TCPConnection

RUNS = 3


class _ErrorCounter(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.count = 0
        self.first: List[str] = []

    def emit(self, record):
        self.count += 1
        if len(self.first) < 3:
            self.first.append(record.getMessage().splitlines()[0][:200])


ERRORS = _ErrorCounter()
_log = logging.getLogger("meshcore")
_log.addHandler(ERRORS)
_log.propagate = False


def load_corpus(path: str) -> List[bytes]:
    frames = []
    with open(path, encoding="ascii") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                f = bytes.fromhex(line)
            except ValueError as e:
                raise SystemExit(f"{path}:{n}: bad hex: {e}")
            if not f:
                raise SystemExit(f"{path}:{n}: empty frame")
            frames.append(f)
    if not frames:
        raise SystemExit(f"{path}: no frames")
    return frames


def _runs_for(pass_seconds: float, min_total: float) -> int:
    per_run = 1.1 * min_total / RUNS          # 10% margin so the three runs reach min_total
    return max(1, math.ceil(per_run / max(pass_seconds, 1e-9)))


async def _calibrate(one_pass) -> float:
    """Seconds per pass, measured over >= 0.2 s (after the caller's warm-up)."""
    n, t0 = 0, time.perf_counter()
    while True:
        await one_pass()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= 0.2:
            return dt / n


# ----------------------------------------------------------------------------- decode

async def bench_decode(frames: List[bytes], min_total: float) -> dict:
    dispatcher = EventDispatcher()
    await dispatcher.start()
    reader = MessageReader(dispatcher)
    counts = {"events": 0}

    def on_event(ev):                       # sync subscriber: called inline with event.clone()
        counts["events"] += 1

    dispatcher.subscribe(None, on_event)

    # warm-up / verification pass, frame by frame
    silent = {}
    for f in frames:
        before = counts["events"]
        await reader.handle_rx(f)
        await dispatcher.queue.join()
        if counts["events"] == before:
            silent[f"0x{f[0]:02x}"] = silent.get(f"0x{f[0]:02x}", 0) + 1
    events_per_pass = counts["events"]
    warm_errors = ERRORS.count

    async def one_pass():
        for f in frames:
            await reader.handle_rx(f)
        await dispatcher.queue.join()

    passes = _runs_for(await _calibrate(one_pass), min_total)

    ERRORS.count = 0
    counts["events"] = 0
    best, total, runs = float("inf"), 0.0, 0
    while runs < RUNS or (total < min_total and runs < 3 * RUNS):   # >= 3 runs and >= min_total
        t0 = time.perf_counter()
        for _ in range(passes):
            await one_pass()
        dt = time.perf_counter() - t0
        best, total, runs = min(best, dt), total + dt, runs + 1
    await dispatcher.stop()

    nbytes = sum(len(f) for f in frames)
    expected_events = events_per_pass * passes * runs
    return {
        "frames_per_s": len(frames) * passes / best,
        "mb_per_s": nbytes * passes / best / 1e6,
        "frames": len(frames),
        "bytes": nbytes,
        "passes_per_run": passes,
        "best_run_s": best,
        "timed_total_s": total,
        "runs": runs,
        "events_per_pass": events_per_pass,
        "events_checked": counts["events"] == expected_events,
        "frames_without_event": silent,             # expected: only 0x02 CONTACTS_START
        "parse_errors": ERRORS.count + warm_errors,
        "parse_error_samples": ERRORS.first,
    }


# ----------------------------------------------------------------------------- framing

class CountingReader:
    """Stands in for MessageReader: the framer calls create_task(reader.handle_rx(frame))."""

    def __init__(self):
        self.frames = 0
        self.bytes = 0
        self.keep: List[bytes] | None = None

    async def handle_rx(self, frame):
        self.frames += 1
        self.bytes += len(frame)
        if self.keep is not None:
            self.keep.append(bytes(frame))


def build_stream(frames: List[bytes]) -> bytes:
    return b"".join(b">" + struct.pack("<H", len(f)) + f for f in frames)


def make_cx(transport: str):
    return TCPConnection("bench", 0) if transport == "tcp" else SerialConnection("bench", 115200)


async def _drain(cx):
    while True:
        pending = [t for t in cx._background_tasks if not t.done()]
        if not pending:
            return
        await asyncio.gather(*pending)


async def bench_framing(frames: List[bytes], min_total: float, transport: str, chunk: int,
                        dispatch: bool) -> dict:
    stream = build_stream(frames)
    chunks = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]
    cx = make_cx(transport)
    stub = CountingReader()
    cx.set_reader(stub if dispatch else None)

    ok = True
    if dispatch:                                # verification pass: frames come out intact
        stub.keep = []
        for c in chunks:
            cx.handle_rx(c)
        await _drain(cx)
        ok = stub.keep == frames
        stub.keep = None

    async def one_pass():
        for c in chunks:
            cx.handle_rx(c)
        if dispatch:
            await _drain(cx)

    await one_pass()                            # warm-up
    passes = _runs_for(await _calibrate(one_pass), min_total)

    stub.frames = stub.bytes = 0
    best, total, runs = float("inf"), 0.0, 0
    while runs < RUNS or (total < min_total and runs < 3 * RUNS):   # >= 3 runs and >= min_total
        t0 = time.perf_counter()
        for _ in range(passes):
            await one_pass()
        dt = time.perf_counter() - t0
        best, total, runs = min(best, dt), total + dt, runs + 1

    idle = cx.header == b"" and cx.inframe == b""     # framer ends every pass at a frame boundary
    res = {
        "frames_per_s": len(frames) * passes / best,
        "mb_per_s": len(stream) * passes / best / 1e6,
        "frames": len(frames),
        "stream_bytes": len(stream),
        "chunk": chunk,
        "transport": transport,
        "passes_per_run": passes,
        "best_run_s": best,
        "timed_total_s": total,
        "runs": runs,
        "framer_idle_at_end": idle,
    }
    if dispatch:
        n = passes * runs
        res["frames_checked"] = ok and stub.frames == len(frames) * n and \
            stub.bytes == sum(len(f) for f in frames) * n
    return res


# ----------------------------------------------------------------------------- sample corpus

def sample_corpus() -> List[bytes]:
    """Hand-built frames following Docs/protocol.md §4/§5 layouts (no meshcore code involved)."""
    P = struct.pack
    out = []
    me = bytes(range(0x40, 0x60))
    out.append(bytes([0x05, 1, 22, 30]) + me + P("<ii", 47123456, -122654321) + bytes([1, 1, 0x25, 0])
               + P("<II", 869525, 250000) + bytes([10, 5]) + b"bench-node")
    dev = (bytes([0x0D, 13, 175, 40]) + P("<I", 0) + b"14 Aug 2026".ljust(12, b"\0")
           + b"RAK 4631".ljust(40, b"\0") + b"v1.17.1".ljust(20, b"\0") + bytes([0, 0]))
    out.append(dev)
    out.append(b"\x02" + P("<I", 40))
    for i in range(40):
        pk = bytes((i * 7 + j) & 0xFF for j in range(32))
        plen = [0xFF, 0, 3, 0x42][i % 4]
        path = bytes((i + j) & 0xFF for j in range(4)) + bytes(60)
        name = f"node-{i:03d}".encode().ljust(32, b"\0")
        out.append(b"\x03" + pk + bytes([1 + i % 4, i & 1, plen]) + path + name
                   + P("<IiiI", 1700000000 + i, 47000000 + i * 1000, -122000000 - i * 1000, 1700001000 + i))
    out.append(b"\x04" + P("<I", 1700001039))
    for i in range(20):
        txt = f"message number {i} " * (1 + i % 6)
        out.append(bytes([0x10, (i * 5) & 0xFF, 0, 0]) + bytes(range(i, i + 6)) + bytes([0xFF if i % 2 else 2, 0])
                   + P("<I", 1700002000 + i) + txt.encode()[:140])
    for i in range(20):
        txt = f"Sender{i}: channel text {i} " * (1 + i % 4)
        out.append(bytes([0x11, (256 - i * 3) & 0xFF, 0, 0, i % 4, 0xFF if i % 3 == 0 else 1, 0])
                   + P("<I", 1700003000 + i) + txt.encode()[:150])
    for i in range(10):
        out.append(b"\x80" + bytes((i + j) & 0xFF for j in range(32)))
        out.append(b"\x82" + P("<II", 0x11223300 + i, 1200 + i))
        out.append(b"\x83")
    for i in range(10):     # 0x88 RX log: flood ADVERT and flood GRP_TXT raw packets
        pk = bytes((i * 3 + j) & 0xFF for j in range(32))
        advert = (pk + P("<I", 1700004000 + i) + bytes(range(64)) + bytes([0x91])
                  + P("<ii", 52520000 + i, 13405000 + i) + f"adv{i}".encode())
        out.append(bytes([0x88, 0x20, 0xB0, 0x11, 0x01, 0x5A]) + advert)
        grp = bytes([0x11]) + P("<H", 0xBEEF) + bytes((i + j) & 0xFF for j in range(48))
        out.append(bytes([0x88, 0x18, 0xA8, 0x15, 0x02, 0x5A, 0x6B]) + grp)
    out.append(b"\x06\x00" + P("<II", 0xA1B2C3D4, 3400))
    out.append(b"\x0c" + P("<HII", 4012, 128, 1024))
    out.append(b"\x0a")
    return out


# ----------------------------------------------------------------------------- main

async def run(frames, ns) -> dict:
    res = {}
    res["decode"] = await bench_decode(frames, ns.min_seconds)
    res["framing"] = await bench_framing(frames, ns.min_seconds, ns.transport, ns.chunk, True)
    res["framing_no_dispatch"] = await bench_framing(frames, ns.min_seconds, ns.transport, ns.chunk, False)
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="meshcore_py parse/framing benchmark peer")
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("--min-seconds", type=float, default=2.0,
                    help="minimum total time of the three timed runs per measurement (default 2.0)")
    ap.add_argument("--transport", choices=("serial", "tcp"), default="serial")
    ap.add_argument("--chunk", type=int, default=64)
    ap.add_argument("--allow-parse-errors", action="store_true",
                    help="do not fail when meshcore logs parse errors (corpus with malformed frames)")
    ap.add_argument("--make-sample-corpus", metavar="PATH",
                    help="write a small hand-built corpus (one hex frame per line) and exit")
    ns = ap.parse_args(argv)

    if ns.make_sample_corpus:
        with open(ns.make_sample_corpus, "w", encoding="ascii") as fh:
            for f in sample_corpus():
                fh.write(f.hex() + "\n")
        return 0
    if not ns.corpus:
        ap.print_usage(sys.stderr)
        return 2
    frames = load_corpus(ns.corpus)
    too_long = [len(f) for f in frames if len(f) > 300]
    if too_long:
        print(f"warning: {len(too_long)} frame(s) > 300 bytes are dropped by meshcore_py's framer",
              file=sys.stderr)

    res = asyncio.run(run(frames, ns))
    try:
        res["meshcore_version"] = metadata.version("meshcore")
    except metadata.PackageNotFoundError:   # pragma: no cover
        res["meshcore_version"] = "?"
    res["python"] = platform.python_version()
    print(json.dumps(res))

    d, f = res["decode"], res["framing"]
    bad = []
    if not d["events_checked"]:
        bad.append("decode event count mismatch")
    if d["parse_errors"] and not ns.allow_parse_errors:
        bad.append(f"meshcore logged {d['parse_errors']} warnings/errors: {d['parse_error_samples']}")
    if not f.get("frames_checked") and not too_long:
        bad.append("framing frame count/content mismatch")
    if not f["framer_idle_at_end"] or not res["framing_no_dispatch"]["framer_idle_at_end"]:
        bad.append("framer not idle at end of pass")
    for b in bad:
        print("sanity check failed: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
