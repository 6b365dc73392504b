#!/usr/bin/env python3
"""Soak (issue 28): `meshport serve` on `meshport sim` under steady use for SOAK_MINUTES.

The sim's contact ann sends 10 DMs a second for the whole run; meanwhile 50 WebSocket clients
read /api/events, 5 API readers page ann's thread with `before` cursors and search, and one app
(meshcore_py) asks for the device info and the contacts through serve's companion port every
5 s. Every 10 s serve's RSS, open fds and threads are sampled from /proc.

Goals: each series grows less than 5 % from just after the warm-up (a fifth of the run, at
least 2 minutes, at most half) to the run's last tenth; every DM the sim delivered is stored
exactly once (and the store passes `db check`); no WebSocket client is dropped and each sees
every DM; no API answer is a 5xx and none fails; the companion client's commands all succeed.

Usage: soak.py [--minutes N] [--results FILE] [--artifacts DIR]
Needs the venv of Tools/requirements.txt (meshcore, websockets, matplotlib). Writes the plot
(soak.png) and the samples (samples.csv, samples.json) into DIR (artifacts/soak), prints the
report and merges its figures into FILE (reliability-results.json). MESHPORT names the
executable (default .build/debug/meshport).
"""
import argparse
import asyncio
import json
import os
import shutil
import sys
import threading
import time
import urllib.error
import urllib.request
from statistics import quantiles

from chaos_support import ROOT, SENDER, Run, figure, merge_results, missing_and_twice, received, wait_for
from soak_clients import ApiReader, CompanionClient, EventClient
import soak_samples

RATE = 10  # DMs per second
WEBSOCKET_CLIENTS = 50
API_READERS = 5
SAMPLE_EVERY = 10.0  # seconds
GROWTH_GOAL = 5.0  # percent
PROGRESS_EVERY = 30  # samples between two progress lines (5 minutes)
# The first DM is due this long after the sim starts: serve starts and every client connects
# before it, so each client can be asked to see every DM.
FIRST_DM_AT = 30.0


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", 30)),
                        help="length of the run (SOAK_MINUTES, default 30)")
    parser.add_argument("--results", default="reliability-results.json")
    parser.add_argument("--artifacts", default=str(ROOT / "artifacts" / "soak"))
    args = parser.parse_args()
    if args.minutes < 1:
        parser.error(f"--minutes {args.minutes}: a soak needs at least 1 minute to have a warm-up and an end")
    return args


class Soak:
    """One run: the processes, the clients and what they saw."""

    def __init__(self, minutes):
        self.run = Run("soak")
        self.db = self.run.dir / "meshport.db"
        self.seconds = minutes * 60
        self.messages = int(self.seconds * RATE)
        self.samples = []
        self.serve_gone = None  # why sampling stopped early, if it did
        self.events = []
        self.readers = []
        self.companion = None

    def start(self):
        _, radio, last_due = self.run.sim(self.messages, start_at=FIRST_DM_AT, per_second=RATE)
        self.first_due = last_due - self.messages / RATE
        self.last_due = last_due
        self.serve, self.base = self.run.serve(radio, self.db, ["--companion", "127.0.0.1:0"])
        self.port = int(self.base.rsplit(":", 1)[1])
        address = wait_for(self.run.companion, 30)
        if address is None:
            raise SystemExit(f"soak: serve never named its companion port; see {self.run.dir / 'serve.log'}")
        self.companion = CompanionClient(address, SENDER)
        self.key = wait_for(self.sender_key, 60, 0.5)
        if self.key is None:
            raise SystemExit(f"soak: serve's radio was not ready with the sim's contact {SENDER} within 60 s; "
                             f"see {self.run.dir / 'serve.log'}")

    def sender_key(self):
        """SENDER's key once serve's radio is ready and has it, else None."""
        try:
            with urllib.request.urlopen(f"{self.base}/api/radios/0/contacts?q={SENDER}", timeout=30) as answer:
                contacts = json.loads(answer.read())
        except urllib.error.HTTPError as error:
            if error.code == 503:  # the radio is not ready yet
                return None
            raise
        return next((c["key"] for c in contacts if c["name"] == SENDER), None)

    def due(self):
        """How many DMs the sim has sent so far."""
        return max(0, min(self.messages, int((time.monotonic() - self.first_due) * RATE)))

    async def drive(self):
        self.events = [EventClient(self.base.replace("http://", "ws://", 1) + "/api/events") for _ in range(WEBSOCKET_CLIENTS)]
        await asyncio.gather(*(client.open() for client in self.events))
        if received(self.db):
            raise SystemExit(f"soak: DMs were stored before the {WEBSOCKET_CLIENTS} WebSocket clients were connected; "
                             f"raise FIRST_DM_AT ({FIRST_DM_AT} s)")
        listening = [asyncio.create_task(client.run()) for client in self.events]
        stop_readers = threading.Event()
        self.readers = [ApiReader(self.port, self.key, self.due, stop_readers, seed) for seed in range(API_READERS)]
        for reader in self.readers:
            reader.start()
        stop_companion = asyncio.Event()
        companion = asyncio.create_task(self.companion.run(stop_companion))

        await self.sample_until(self.last_due + SAMPLE_EVERY / 2)
        # Every client stays until the store holds every DM, so each can be asked to have seen them all.
        await asyncio.to_thread(wait_for, lambda: not missing_and_twice(self.db, self.messages)[0], 60)

        stop_readers.set()
        stop_companion.set()
        for client in self.events:
            await client.close()
        await asyncio.gather(*listening)
        try:
            await asyncio.wait_for(companion, 30)
        except Exception as error:  # the report says it: it is one of the goals
            self.companion.failures.append(f"the client ended with {error!r}")
        for reader in self.readers:
            await asyncio.to_thread(reader.join, 120)

    async def sample_until(self, end):
        """A sample every SAMPLE_EVERY seconds from the first DM's due time to END."""
        tick = self.first_due
        while tick <= end:
            await asyncio.sleep(max(0.0, tick - time.monotonic()))
            try:
                self.samples.append(soak_samples.sample(self.serve.pid, tick - self.first_due))
            except FileNotFoundError:
                self.serve_gone = f"meshport serve ended ({self.serve.poll()}) after {(tick - self.first_due) / 60:.1f} min"
                return
            if len(self.samples) > 1 and (len(self.samples) - 1) % PROGRESS_EVERY == 0:
                last = self.samples[-1]
                print(f"soak: {last['t'] / 60:.0f} of {self.seconds / 60:g} min: RSS {last['rss_kb'] / 1024:.1f} MB, "
                      f"{last['fds']} fds, {last['threads']} threads", flush=True)
            tick += SAMPLE_EVERY


def growths(soak, warm_up):
    """{key: (percent, base, end) or None} for the three series."""
    return {key: soak_samples.growth(soak.samples, key, warm_up) for key, _, _ in soak_samples.SERIES}


def report(soak, warm_up, growth, png, missing, twice, check):
    """Prints the report; returns the figures."""
    results = {"soak_minutes": figure(soak.seconds / 60, "minutes", "SOAK_MINUTES", True)}
    print(f"soak {soak.seconds / 60:g} min through meshport serve: {soak.messages} DMs at {RATE}/s, "
          f"{WEBSOCKET_CLIENTS} WebSocket clients, {API_READERS} API readers, 1 companion client")
    if soak.serve_gone:
        print(f"  {soak.serve_gone}; see {soak.run.dir / 'serve.log'}")
    results["soak_serve_alive"] = figure(soak.serve_gone is None, "bool", True, soak.serve_gone is None)

    parts = []
    for (key, name, unit), found in zip(soak_samples.SERIES, growth.values()):
        if found is None:
            parts.append(f"{name}: no samples after the warm-up")
            results[f"soak_{key.removesuffix('_kb')}_growth"] = figure("no samples", "%", f"< {GROWTH_GOAL}", False)
            continue
        percent, (base, base_values), (end, end_values) = found
        if unit == "kB":
            parts.append(f"{name} {base / 1024:.1f} -> {end / 1024:.1f} MB ({percent:+.1f} %)")
        else:  # small whole numbers: the windows' ranges tell a transient from a leak
            parts.append(f"{name} {base:.1f} -> {end:.1f} ({percent:+.1f} %; "
                         f"{min(base_values)}-{max(base_values)} -> {min(end_values)}-{max(end_values)})")
        results[f"soak_{key.removesuffix('_kb')}_growth"] = figure(round(percent, 2), "%", f"< {GROWTH_GOAL}", percent < GROWTH_GOAL)
    print(f"resources, {len(soak.samples)} samples every {SAMPLE_EVERY:g} s, warm-up {warm_up / 60:.1f} min: {'; '.join(parts)}")

    print(f"store: {soak.messages} DMs sent, {len(missing)} missing, {len(twice)} stored twice; db check {check or 'ok'}")
    if missing:
        print(f"  missing: {', '.join(f'chaos {i}' for i in missing[:20])}")
    results["soak_messages_lost"] = figure(len(missing), "messages", 0, not missing)
    results["soak_messages_twice"] = figure(len(twice), "messages", 0, not twice)
    results["soak_integrity"] = figure(check or "ok", "", "ok", not check)

    dropped = [client.dropped for client in soak.events if client.dropped]
    stored = set(range(soak.messages)) - set(missing)
    unseen = sum(len(stored - client.dms) for client in soak.events)
    events = sum(client.events for client in soak.events)
    print(f"WebSocket: {len(soak.events)} clients, {events} events, {len(dropped)} dropped, "
          f"{unseen} stored DMs a client did not see")
    for line in dropped[:5]:
        print(f"  {line}")
    results["soak_websocket_clients_dropped"] = figure(len(dropped), "clients", 0, not dropped)
    results["soak_websocket_dms_unseen"] = figure(unseen, "client-messages", 0, not unseen)

    latencies = sorted(t for reader in soak.readers for t in reader.latencies)
    errors = [line for reader in soak.readers for line in reader.server_errors]
    failures = [line for reader in soak.readers for line in reader.failures]
    repeats = sum(reader.repeats for reader in soak.readers)
    cuts = quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    print(f"API readers: {len(latencies)} answers ({sum(r.pages for r in soak.readers)} timeline pages, "
          f"{sum(r.searches for r in soak.readers)} searches), p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms; "
          f"{len(errors)} server errors, {len(failures)} other failures, {repeats} messages repeated within a walk")
    for line in (errors + failures)[:5]:
        print(f"  {line}")
    results["soak_api_server_errors"] = figure(len(errors), "answers", 0, not errors)
    results["soak_api_failures"] = figure(len(failures), "requests", 0, not failures)
    results["soak_api_timeline_repeats"] = figure(repeats, "messages", 0, not repeats)
    results["soak_api_p99"] = figure(round(cuts[98] * 1000, 1), "ms", "none (recorded)", True)

    companion = soak.companion
    print(f"companion: {companion.rounds} rounds of device query and contacts, {len(companion.failures)} failed")
    for line in companion.failures[:5]:
        print(f"  {line}")
    results["soak_companion_failures"] = figure(len(companion.failures), "commands", 0, not companion.failures)
    print(f"plot: {png}; samples: {png.with_name('samples.csv')}, {png.with_name('samples.json')}")
    return results


def main():
    args = arguments()
    soak = Soak(args.minutes)
    try:
        soak.start()
        asyncio.run(soak.drive())
        missing, twice = missing_and_twice(soak.db, soak.messages)
        check = soak.run.db_check(soak.db)
    finally:
        soak.run.stop_all()
    warm_up = soak_samples.warm_up(soak.seconds)
    growth = growths(soak, warm_up)
    title = (f"meshport serve, {soak.seconds / 60:g} min soak: " +
             ", ".join(f"{name} {g[0]:+.1f} %" if g else f"{name} ?" for (_, name, _), g in zip(soak_samples.SERIES, growth.values()))
             + " after the warm-up (shaded)")
    png = soak_samples.write(soak.samples, args.artifacts, warm_up, title)
    results = report(soak, warm_up, growth, png, missing, twice, check)
    merge_results(args.results, results)
    failed = [name for name, entry in results.items() if not entry["ok"]]
    print(f"soak: {len(results) - len(failed)} figures met their goal, {len(failed)} missed: {', '.join(failed) or 'none'}")
    if failed:
        print(f"soak: logs and database kept in {soak.run.dir}")
    else:
        shutil.rmtree(soak.run.dir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
