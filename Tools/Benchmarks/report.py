#!/usr/bin/env python3
"""Merges one benchmark group into bench-results.json and prints it as a table.

Each entry: {"value": x, "unit": "...", "peer": "<what it was compared with>", "peer_value": y, "ratio": ...}
(ratio > 1 means Meshport is better: x / y for rates, y / x for times). Entries of other groups
already in the file are kept.
"""
import json
import os
import sys


def codec(ours, peer):
    version = peer.get("meshcore_version", "?")
    out = {}
    for key, label in (("decode", "decode (MessageReader + event dispatch)"), ("framing", "stream framing (serial reader, 64-byte chunks)")):
        for metric, unit in (("frames_per_s", "frames/s"), ("mb_per_s", "MB/s")):
            name = f"codec.{key}.{metric}"
            value, peer_value = ours[key][metric], peer[key][metric]
            out[name] = {"value": round(value, 2), "unit": unit, "peer": f"meshcore_py {version} {label}",
                         "peer_value": round(peer_value, 2), "ratio": round(value / peer_value, 2)}
    if "framing_no_dispatch" in peer:
        value, peer_value = ours["framing"]["frames_per_s"], peer["framing_no_dispatch"]["frames_per_s"]
        out["codec.framing_only.frames_per_s"] = {"value": round(value, 2), "unit": "frames/s",
                                                  "peer": f"meshcore_py {version} frame reassembly without dispatch",
                                                  "peer_value": round(peer_value, 2), "ratio": round(value / peer_value, 2)}
    return out


def store(ours, _peer):
    """MeshportStoreBench measures MeshStore and a naive baseline in one run (one JSON object).

    For times (lower is better) the ratio is naive / Meshport; for rates it is Meshport / naive:
    either way a ratio above 1 means Meshport is better.
    """
    naive = "naive baseline in the same run: "
    out = {}

    def time_entry(name, value, peer_value, unit, peer):
        out[f"store.{name}"] = {"value": round(value, 4), "unit": f"{unit} (lower is better; ratio = naive / Meshport)",
                                "peer": naive + peer, "peer_value": round(peer_value, 4), "ratio": round(peer_value / value, 2)}

    def rate_entry(name, value, peer_value, unit, peer):
        out[f"store.{name}"] = {"value": round(value, 1), "unit": f"{unit} (higher is better; ratio = Meshport / naive)",
                                "peer": naive + peer, "peer_value": round(peer_value, 1), "ratio": round(value / peer_value, 2)}

    s5, s100 = ours["seed_5k"], ours["seed_100k"]
    time_entry("seed_5k_nodes", s5["seconds"], s5["naive_seconds"], "s (5,000 nodes x 9 samples; goal < 0.5)",
               "one autocommit INSERT per row, statements re-prepared")
    scaled = "" if s100["naive_nodes_measured"] == 100000 else f", measured on {s100['naive_nodes_measured']:,} nodes and scaled"
    time_entry("seed_100k_nodes", s100["seconds"], s100["naive_seconds"], "s (100,000 nodes x 9 samples; goal < 10)",
               "one autocommit INSERT per row" + scaled)
    ing = ours["ingest"]
    rate_entry("ingest_first_100k", ing["first_100k_messages_per_s"], ing["naive_messages_per_s"],
               "messages/s (durable, 1,000 per commit, FTS indexed; goal >= 20,000)", "one autocommit INSERT per message, synchronous=FULL")
    rate_entry("ingest_500k", ing["messages_per_s"], ing["naive_messages_per_s"],
               "messages/s (all 500,000, index growing to full size)", "one autocommit INSERT per message, synchronous=FULL")
    lat = ours["save_latency"]
    for p in ("p50", "p99"):
        time_entry(f"save_latency_{p}", lat[f"{p}_ms"], lat[f"naive_{p}_ms"], f"ms (one immediate durable message save, {p})",
                   "autocommit INSERT in rollback-journal mode, synchronous=FULL")
    time_entry("prefix_lookup", ours["prefix_lookup"]["us"], ours["prefix_lookup"]["naive_us"],
               "us (6-byte key prefix among 100,000 contacts; goal < 20)", "hex(publicKey) LIKE scan")
    time_entry("timeline_page", ours["timeline_page"]["ms"], ours["timeline_page"]["naive_ms"],
               "ms (50 messages of a 50,000-message channel, every page; goal < 1)", "LIMIT/OFFSET paging without the timeline index")
    fts = ours["fts_query"]
    time_entry("fts_query", fts["ms"], fts["naive_ms"], "ms (mean of 5 queries over 500,000 messages; goal < 20)", "text LIKE '%word%' scan")
    time_entry("fts_query_max", fts["max_ms"], fts["naive_ms"], "ms (slowest of the 5 queries)", "text LIKE '%word%' scan (mean)")
    return out


def transport(ours, _peer):
    """MeshportTransportBench measures the plugin path and two in-process baselines in one run.

    overhead_pct is the plugin's cost over the baseline (goal: under 5%); ratio > 1 means the
    plugin path is faster.
    """
    out = {}
    baselines = {
        "direct": "the same %s used directly in-process (blocking read/write, no threads)",
        "threaded": "the same %s read by a thread into an AsyncStream, no plugin (a Transport's shape)",
    }
    for link, what in (("tcp", "TCP loopback socket"), ("pty", "pty")):
        plugin = ours[link]["plugin"]
        for base, label in baselines.items():
            peer = ours[link][base]
            suffix = "" if base == "direct" else "_vs_threaded"
            for p in ("p50", "p99"):
                value, peer_value = plugin[f"{p}_us"], peer[f"{p}_us"]
                out[f"transport.{link}.round_trip_{p}{suffix}"] = {
                    "value": round(value, 1), "unit": f"us ({ours['frame_bytes']}-byte frame round trip, {p}; lower is better)",
                    "peer": label % what, "peer_value": round(peer_value, 1), "ratio": round(peer_value / value, 2),
                    "overhead_pct": round((value / peer_value - 1) * 100, 1)}
            value, peer_value = plugin["frames_per_s"], peer["frames_per_s"]
            out[f"transport.{link}.frames_per_s{suffix}"] = {
                "value": round(value, 1), "unit": f"frames/s ({ours['window']} in flight; higher is better)",
                "peer": label % what, "peer_value": round(peer_value, 1), "ratio": round(value / peer_value, 2),
                "overhead_pct": round((peer_value / value - 1) * 100, 1)}
    return out


def sim(ours, _peer):
    """MeshportSimBench measures a MeshSim radio serving an in-process client, and its floors, in one run.

    The peer is MeshCodec alone on the same frames (decode each command, encode each reply):
    the ratio (simulation / codec-only) is the share of the floor's speed the simulation keeps.
    A second entry compares the radio with its own handler called without the actor.
    """
    out = {}
    goal = ours["goal_frames_per_s"]
    rounds = ours["rounds"]
    mix, contacts = ours["mix"], ours["contacts"]
    codec_peer = "MeshCodec alone on the same frames: decode each command, encode each reply (no simulation)"
    entries = (
        ("mix", mix, f"frames/s (command mix without the contact stream, {mix['frames_per_iteration']:.1f} frames per iteration; median of {rounds})"),
        ("contacts", contacts, f"frames/s (GET_CONTACTS stream, {contacts['contacts']} contacts = {contacts['frames_per_stream']} frames; median of {rounds})"),
    )
    for key, figures, unit in entries:
        value, peer_value = figures["frames_per_s"], figures["codec_frames_per_s"]
        out[f"sim.{key}.frames_per_s"] = {"value": round(value, 1), "unit": unit, "peer": codec_peer, "peer_value": round(peer_value, 1),
                                          "ratio": round(value / peer_value, 3), "goal": f">= {goal:,.0f} frames/s", "goal_met": value >= goal}
    value, peer_value = mix["frames_per_s"], ours["breakdown"]["mix_no_actor_frames_per_s"]
    out["sim.mix.frames_per_s_vs_unisolated"] = {
        "value": round(value, 1), "unit": f"frames/s (command mix through the SimRadio actor; median of {rounds})",
        "peer": "the same handler and codec on a state value, no actor (what SimRadio.receive does, inline)",
        "peer_value": round(peer_value, 1), "ratio": round(value / peer_value, 3)}
    return out


def session(ours, _peer):
    """rounds.sh runs RadioSession, meshcore_py and the floor, each on its own fresh sim per round (one JSON object).

    Times: lower is better, ratio = meshcore_py / Meshport (goal >= 10: Meshport takes at most a
    tenth of meshcore_py's time). floor_value is the same operation from a bare blocking socket with
    MeshCodec and nothing else: what the simulator and the kernel take, which no client goes under.
    floor_ratio = Meshport / floor; the round trip's median and the drain carry a second goal
    against it (floor_goal, floor_goal_met: issue 28, "Performance against the floor").
    """
    import statistics

    rounds = ours["rounds"]
    version = (ours["meshcore_py"][0].get("meshcore_version") if ours["meshcore_py"] else None) or "?"
    peer = f"meshcore_py {version}, public API, same scenario on a fresh sim per round"
    out = {}

    def pooled(client, key):
        values = []
        for r in ours[client]:
            v = r[key]
            values.extend(v if isinstance(v, list) else [v])
        return values

    # The most Meshport may take over the floor, per operation and statistic.
    floor_goals = {"round_trip_median": 1.3, "drain_median": 1.5}

    def entry(name, key, stat, unit):
        f = statistics.mean if stat == "mean" else statistics.median
        value, peer_value, floor = f(pooled("meshport", key)), f(pooled("meshcore_py", key)), f(pooled("floor", key))
        ratio = peer_value / value
        e = {"value": round(value, 3), "unit": unit, "peer": peer, "peer_value": round(peer_value, 3),
             "ratio": round(ratio, 2), "floor_value": round(floor, 3), "floor_ratio": round(value / floor, 2),
             "goal": ">= 10x (Meshport at most 1/10 of meshcore_py's time)", "goal_met": ratio >= 10}
        if name in floor_goals:
            most = floor_goals[name]
            e.update(floor_goal=f"<= {most}x the floor", floor_goal_met=value <= most * floor)
        out[f"session.{name}"] = e

    m = ours["meshport"][0]
    trips, syncs = len(m["round_trip_us"]), len(m["contact_sync_ms"])
    for stat in ("mean", "median"):
        entry(f"round_trip_{stat}", "round_trip_us", stat,
              f"us (DEVICE_QUERY round trip, {stat} of {trips} x {rounds} rounds; lower is better)")
        entry(f"contact_sync_{stat}", "contact_sync_ms", stat,
              f"ms (GET_CONTACTS, {m['contacts']:,} contacts, {stat} of {syncs} x {rounds} rounds; lower is better)")
        entry(f"drain_{stat}", "drain_ms", stat,
              f"ms (SYNC_NEXT_MESSAGE until NO_MORE_MESSAGES, {m['messages']:,} queued, {stat} of {rounds} rounds; lower is better)")
    # The client's own CPU (its process, every thread) per operation: its cost apart from waiting
    # for the simulator, whose share of the wall time no client can remove.
    entry("round_trip_cpu", "round_trip_cpu_us", "mean", f"us CPU per DEVICE_QUERY round trip (client process, mean of {rounds} rounds)")
    entry("contact_sync_cpu", "contact_sync_cpu_ms", "mean",
          f"ms CPU per GET_CONTACTS of {m['contacts']:,} (client process, mean of {rounds} rounds)")
    entry("drain_cpu", "drain_cpu_ms", "mean", f"ms CPU per drain of {m['messages']:,} (client process, mean of {rounds} rounds)")
    return out


def serial_sync(ours, _peer):
    """MeshportSessionBench serial (SessionBench/SerialSync.swift) syncs contacts from `meshport sim
    --pty --baud N`, whose pty carries bytes at that line speed: the floor is the sync's bytes at
    10 bits a byte, which no client can beat. Goal (issue 28): the median sync within 1.1x of it.
    """
    import statistics

    value, wire = statistics.median(ours["contact_sync_ms"]), ours["wire_ms"]
    return {"serial.contact_sync_median": {
        "value": round(value, 1),
        "unit": f"ms (GET_CONTACTS, {ours['contacts']:,} contacts on {ours['baud']:,} Bd, median of {len(ours['contact_sync_ms'])}; "
                f"{ours['wire_bytes']:,} bytes on the line; CPU {ours['contact_sync_cpu_ms']:.1f} ms per sync)",
        "peer": f"the wire time of the same bytes at {ours['baud']:,} Bd, 10 bits a byte (the line's floor)",
        "peer_value": round(wire, 1), "ratio": round(wire / value, 3),
        "floor_value": round(wire, 1), "floor_ratio": round(value / wire, 3),
        "floor_goal": "<= 1.1x the wire time", "floor_goal_met": value <= 1.1 * wire}}


def ble(ours, peer):
    """Meshport's LE host (MeshportBLEBench) and Bumble's (bumble_host_bench.py) on the same
    emulated world bridged to meshport sim. Times: lower is better; ratio = Bumble / Meshport
    (goal > 1: Meshport faster)."""
    import importlib.metadata
    try:
        version = importlib.metadata.version("bumble")
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    who = f"Bumble {version} host, same world and sim, run right after"
    out = {}

    def entry(name, value, peer_value, unit):
        ratio = peer_value / value
        out[f"ble.{name}"] = {"value": round(value, 3), "unit": unit, "peer": who, "peer_value": round(peer_value, 3),
                              "ratio": round(ratio, 2), "goal": "> 1x (Meshport faster)", "goal_met": ratio > 1}

    connects = len(ours["connect_pair_first_frame_s"]["all"])
    entry("connect_pair_first_frame_median", ours["connect_pair_first_frame_s"]["median"] * 1000,
          peer["connect_pair_first_frame_s"]["median"] * 1000,
          f"ms (connect + SC passkey pairing + discovery + APP_START answered, median of {connects}; lower is better)")
    trips = ours["round_trip_s"]["count"]
    for stat in ("median", "mean"):
        entry(f"round_trip_{stat}", ours["round_trip_s"][stat] * 1e6, peer["round_trip_s"][stat] * 1e6,
              f"us (GET_DEVICE_TIME -> CURRENT_TIME over NUS, {stat} of {trips}; lower is better)")
    entry("round_trip_cpu", ours["round_trip_cpu_s"] * 1e6, peer["round_trip_cpu_s"] * 1e6,
          "us CPU per round trip (client process; lower is better)")
    return out


def usb(ours, _peer):
    """usb:// against the kernel's tty driver (Meshport's serial:// on an identical device) in
    one QEMU guest: round trips interleaved in one process, the devices swapping roles each
    round (Tools/Benchmarks/USB/run.sh). Figures are medians over rounds; the ratio is the
    median of the rounds' own ratios (each round's two paths met the same host). Goal: no
    slower (ratio >= 1). Round trip: ratio = tty / usb; throughput: ratio = usb / tty."""
    out = {}

    def median(values):
        values = sorted(values)
        return values[len(values) // 2]

    for path, runs in ours.items():
        usb_runs, tty_runs = runs["usb"], runs["tty"]
        if not usb_runs or not tty_runs:
            continue
        cpus = "two guest CPUs" if path.endswith("-2cpu") else "one guest CPU"
        tty_name = "ttyUSB (ftdi_sio)" if path.startswith("ftdi") else "ttyACM (cdc_acm)"
        who = f"serial:// on the kernel's {tty_name} of an identical device, interleaved, {cpus}"
        sample = usb_runs[0]
        for key, label, better in (("p50_us", "round trip p50", "lower"), ("p99_us", "round trip p99", "lower"),
                                   ("frames_per_s", "throughput", "higher")):
            value, peer_value = median([r[key] for r in usb_runs]), median([r[key] for r in tty_runs])
            ratios = [(t[key] / u[key]) if better == "lower" else (u[key] / t[key]) for u, t in zip(usb_runs, tty_runs)]
            ratio = median(ratios)
            unit = (f"us ({sample['frame_bytes']}-byte echo frames, {sample['round_trips']} round trips; lower is better)"
                    if better == "lower" else f"frames/s ({sample['frames']} echo frames, {sample['window']} in flight; higher is better)")
            out[f"usb.{path}.{key}"] = {"value": round(value, 1), "unit": unit, "peer": who, "peer_value": round(peer_value, 1),
                                        "ratio": round(ratio, 2), "goal": ">= 1x (no slower)", "goal_met": ratio >= 1,
                                        "runs": len(usb_runs), "round_ratios": [round(r, 2) for r in ratios]}
    return out


def serve(ours, _peer):
    """`meshport serve` (Tools/Benchmarks/Serve/serve_bench.py): every peer is measured in the same
    run. Sizes and times: lower is better, ratio = peer / Meshport; the goals are the issue's."""
    out = {}
    mem, start, fan, page = ours["memory"], ours["cold_start"], ours["fanout"], ours["timeline"]
    rss_mb, empty_mb = mem["rss_kib"] / 1024, mem["empty_rss_kib"] / 1024
    out["serve.idle_rss_5k_nodes"] = {
        "value": round(rss_mb, 1), "unit": "MB resident, idle, 5,000 nodes (3 telemetry, positions, stats each) and 10,000 messages in the store",
        "peer": "the same server on an empty store", "peer_value": round(empty_mb, 1), "ratio": round(empty_mb / rss_mb, 2),
        "goal": "< 40 MB", "goal_met": rss_mb < 40, "peak_mb": round(mem["hwm_kib"] / 1024, 1),
        # RSS counts the clean, shared pages of the executable and libraries it touched too.
        "anonymous_mb": round(mem["anon_kib"] / 1024, 1), "file_backed_mb": round(mem["file_kib"] / 1024, 1)}
    for key, label in (("ready_ms", "exec to the radio ready"), ("healthz_ms", "exec to /healthz answering")):
        value = start[key]
        entry = {"value": round(value, 1), "unit": f"ms, {label} (median of 5, 5,000-node store; lower is better)",
                 "peer": "exec to exit of `meshport --help` (process start floor)", "peer_value": round(start["floor_ms"], 1),
                 "ratio": round(start["floor_ms"] / value, 3)}
        if key == "ready_ms":
            entry.update(goal="< 300 ms", goal_met=value < 300)
        out[f"serve.cold_start_{key[:-3]}"] = entry
    paced, ceiling = fan["paced"], fan["ceiling"]
    delivered = paced["received"] / paced["expected"]
    offered = ours["rate"]
    out["serve.ws_fanout_delivered"] = {
        "value": round(100 * delivered, 2), "unit": f"% of {ours['rate']:,} events/s x {ours['seconds']} s delivered to each of {ours['clients']} clients, in order",
        "peer": "events offered", "peer_value": 100.0, "ratio": round(delivered, 4),
        "goal": "100% (no loss, in order)", "goal_met": delivered == 1 and paced["in_order"] and paced["closed_by_server"] == 0,
        "latency_p50_ms": round(paced["latency_p50_ms"], 1), "latency_p99_ms": round(paced["latency_p99_ms"], 1),
        "publish_seconds": paced["publish_s"], "server_cpu_cores": round(paced["server_cpu_s"] / (paced["publish_s"] + 1.5), 2)}
    out["serve.ws_fanout_latency_p99"] = {
        "value": round(paced["latency_p99_ms"], 1), "unit": "ms from an event's due time to its arrival at a client (p99; lower is better)",
        "peer": "p50 of the same run", "peer_value": round(paced["latency_p50_ms"], 1),
        "ratio": round(paced["latency_p50_ms"] / max(paced["latency_p99_ms"], 1e-3), 2)}
    out["serve.ws_fanout_ceiling"] = {
        "value": round(ceiling["per_client_events_per_s"], 1),
        "unit": f"events/s per client, {ours['clients']} clients, published unpaced until the clients fall a buffer behind (higher is better)",
        "peer": "the offered rate", "peer_value": float(offered), "ratio": round(ceiling["per_client_events_per_s"] / offered, 2),
        "delivered_pct": round(100 * ceiling["received"] / ceiling["expected"], 1), "closed_as_slow": ceiling["closed_by_server"]}
    for key, label in (("p99_ms", "p99"), ("p50_ms", "p50")):
        out[f"serve.timeline_{label}"] = {
            "value": round(page[key], 2), "unit": f"ms, a page of 50 channel messages ({page['stored_messages']} stored), {label}, under {ours['load_connections']} keep-alive connections in a closed loop (lower is better)",
            "peer": "/healthz under the same load", "peer_value": round(page["healthz"][key], 2),
            "ratio": round(page["healthz"][key] / page[key], 2), "pages_per_s": round(page["requests_per_s"], 1)}
    return out


def uplink(ours, _peer):
    """`meshport uplink` against meshcore_py + paho-mqtt (Tools/Benchmarks/Uplink/uplink_bench.py),
    each on its own busy `meshport sim` through one Mosquitto in the same run. Rates: ratio =
    Meshport / peer; CPU and memory: ratio = peer / Meshport. The goals are the issue's."""
    mine, peer = ours["meshport"], ours["peer"]
    version = f"meshcore_py {ours['meshcore_version']} + paho-mqtt {ours['paho_version']}"
    load = f"{ours['packets']:,} heard packets offered at {ours['offered_per_s']:,}/s, QoS {ours['qos']}"
    out = {}
    ratio = mine["packets_per_s"] / peer["packets_per_s"]
    out["uplink.packets_per_s"] = {
        "value": round(mine["packets_per_s"], 1), "unit": f"packet messages/s at a subscriber ({load}; higher is better)",
        "peer": f"{version}, the same on its own sim", "peer_value": round(peer["packets_per_s"], 1), "ratio": round(ratio, 2),
        "goal": ">= 10x the peer", "goal_met": ratio >= 10,
        "bounded_by": mine["bounded_by"], "peer_bounded_by": peer["bounded_by"],
        "received": mine["received"], "peer_received": peer["received"]}
    cpu = peer["cpu_us_per_packet"] / mine["cpu_us_per_packet"]
    out["uplink.cpu_per_packet"] = {
        "value": round(mine["cpu_us_per_packet"], 1), "unit": f"us of CPU (user + system) per message delivered, the whole uplink process ({load}; lower is better)",
        "peer": f"{version}, the same run", "peer_value": round(peer["cpu_us_per_packet"], 1), "ratio": round(cpu, 2),
        "goal": "<= 1/5 of the peer's", "goal_met": cpu >= 5}
    rss, without = ours["serve_rss"]["rss_kib"] / 1024, ours["serve_rss_without_uplink"]["rss_kib"] / 1024
    out["uplink.serve_idle_rss"] = {
        "value": round(rss, 1), "unit": "MB resident, `meshport serve --mqtt` idle after the warm-up, uplink connected",
        "peer": "the same server without --mqtt", "peer_value": round(without, 1), "ratio": round(without / rss, 2),
        "goal": "< 45 MB", "goal_met": rss < 45,
        "anonymous_mb": round(ours["serve_rss"]["anon_kib"] / 1024, 1), "file_backed_mb": round(ours["serve_rss"]["file_kib"] / 1024, 1)}
    return out


def region(ours, _peer):
    """`meshport ingest` with one and two workers against a naive psycopg peer
    (Tools/Benchmarks/Region/region_bench.py), each draining the same queued messages into its own
    database of one PostgreSQL in the same run. Rates: ratio = Meshport / peer; CPU: peer / Meshport
    (the database server's own CPU is in neither)."""
    peer = ours["peer"]
    load = f"{ours['observations']:,} observations queued at the broker"
    who = f"paho-mqtt + psycopg {peer.get('psycopg', '?')}, one INSERT per row, autocommit"
    out = {}
    for workers in (1, 2):
        mine = ours[f"meshport_{workers}"]
        ratio = mine["observations_per_s"] / peer["observations_per_s"]
        out[f"region.observations_per_s.{workers}_worker"] = {
            "value": round(mine["observations_per_s"], 1), "unit": f"observations/s into PostgreSQL, {workers} worker(s) ({load}; higher is better)",
            "peer": who, "peer_value": round(peer["observations_per_s"], 1), "ratio": round(ratio, 2),
            "goal": ">= 20,000/s with one worker and >= 20x the peer" if workers == 1 else ">= 20x the peer",
            "goal_met": ratio >= 20 and (workers == 2 or mine["observations_per_s"] >= 20_000)}
        cpu = peer["cpu_us_per_observation"] / mine["cpu_us_per_observation"]
        out[f"region.cpu_per_observation.{workers}_worker"] = {
            "value": round(mine["cpu_us_per_observation"], 1), "unit": "us of worker CPU per observation (lower is better)",
            "peer": who, "peer_value": round(peer["cpu_us_per_observation"], 1), "ratio": round(cpu, 2)}
    return out


def region_query(ours, _peer):
    """`GET /api/region/nodes` of `meshport serve --history` on a seeded region
    (Tools/Benchmarks/Region/query_bench.py) against the same SQL bare on psycopg in the same run
    (the database's floor). Times: lower is better, ratio = SQL / API; the goal is the issue's."""
    api, sql = ours["api"], ours["sql"]
    size = f"{ours['nodes']:,} nodes, {ours['observations']:,} observations over {ours['days']} days from {ours['observers']} observers"
    kinds = ", ".join(f"{name} (limit {limit})" for name, limit in ours["kinds"].items())
    floor = "the same SQL on a psycopg connection, same requests (the database's floor)"
    out = {}
    for p in ("p50", "p95", "p99"):
        value, peer_value = api["all"][f"{p}_ms"], sql["all"][f"{p}_ms"]
        entry = {"value": round(value, 2), "unit": f"ms, GET /api/region/nodes {p} of {ours['requests']} requests: {kinds}; {size} (lower is better)",
                 "peer": floor, "peer_value": round(peer_value, 2), "ratio": round(peer_value / value, 2)}
        if p == "p99":
            entry.update(goal="< 50 ms", goal_met=value < 50, seed_seconds=round(ours["seed_seconds"], 1),
                         vacuum_analyze_seconds=round(ours["vacuum_analyze_seconds"], 1))
        out[f"region_query.nodes_{p}"] = entry
    for name, limit in ours["kinds"].items():
        value, peer_value = api[name]["p99_ms"], sql[name]["p99_ms"]
        out[f"region_query.nodes_p99.{name}"] = {
            "value": round(value, 2), "unit": f"ms, p99 of {api[name]['count']} {name} requests (limit {limit}); {size} (lower is better)",
            "peer": floor, "peer_value": round(peer_value, 2), "ratio": round(peer_value / value, 2), "goal": "< 50 ms", "goal_met": value < 50}
    return out


GROUPS = {"region": region, "region_query": region_query, "serve": serve, "usb": usb, "codec": codec, "store": store, "transport": transport, "sim": sim, "session": session, "serial_sync": serial_sync, "ble": ble, "uplink": uplink}


def main():
    group, ours_path, peer_path, results_path = sys.argv[1:5]
    with open(ours_path) as f:
        ours = json.load(f)
    with open(peer_path) as f:
        peer = json.load(f)
    entries = GROUPS[group](ours, peer)
    results = {}
    if os.path.exists(results_path):
        with open(results_path) as f:
            results = json.load(f)
    results.update(entries)
    with open(results_path, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{'benchmark':40} {'Meshport':>14} {'peer':>14} {'ratio':>8}  unit")
    for name, e in sorted(entries.items()):
        overhead = f"  overhead {e['overhead_pct']:+.1f}% (goal < 5%)" if "overhead_pct" in e else ""
        if "floor_value" in e:
            overhead += f"  floor ({'wire' if name.startswith('serial.') else 'sim + socket'}) {e['floor_value']:,.1f}"
            if "floor_ratio" in e:
                overhead += f" ({e['floor_ratio']:.2f}x the floor)"
        if "goal_met" in e:
            overhead += f"  goal {e['goal']}: {'met' if e['goal_met'] else 'MISSED'}"
        if "floor_goal_met" in e:
            overhead += f"  floor goal {e['floor_goal']}: {'met' if e['floor_goal_met'] else 'MISSED'}"
        if "anonymous_mb" in e:
            overhead += f"  (anonymous {e['anonymous_mb']} MB, file-backed {e['file_backed_mb']} MB)"
        if "bounded_by" in e:
            overhead += f"  bounded by: Meshport {e['bounded_by']}, peer {e['peer_bounded_by']}"
        if "seed_seconds" in e:
            overhead += f"  seeded in {e['seed_seconds']} s (then VACUUM ANALYZE {e['vacuum_analyze_seconds']} s)"
        if "latency_p99_ms" in e:
            overhead += f"  latency p50 {e['latency_p50_ms']} ms, p99 {e['latency_p99_ms']} ms, server {e['server_cpu_cores']} cores"
        print(f"{name:40} {e['value']:>14,.1f} {e['peer_value']:>14,.1f} {e['ratio']:{'>7.2f' if e['ratio'] >= 0.1 else '>7.3f'}}x  {e['unit']}{overhead}  (peer: {e['peer']})")
    print(f"written to {results_path}")


if __name__ == "__main__":
    main()
