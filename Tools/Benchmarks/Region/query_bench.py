#!/usr/bin/env python3
"""The region query benchmark: `GET /api/region/nodes` (nodes by last heard, each with its last
position and the observer that hears it best) of `meshport serve --history` (release build) on a
seeded region of REGION_QUERY_NODES nodes and REGION_QUERY_OBSERVATIONS observations
(seed_region.py), against the same SQL run bare on a psycopg connection in the same run (the
floor: what the database alone costs). Printed as one JSON object for report.py's
`region_query` group.

Its own PostgreSQL 15 (Tools/Web/postgres.py, default settings but a larger WAL while seeding);
`meshport serve --history` on a `meshport sim` radio applies the schema (Modules/MeshRegion/
RegionMigrations.swift) before the seed. The requests are those a user makes: the Region view's
map (limit 5000), the list's first page (the default 500), and keyset pages of 50 and 500 deep
in the list (cursors collected by paging through every node first, which is also the warm-up),
over one keep-alive HTTP connection, one at a time, each followed by the same SQL. p50/p95/p99
of all and of each kind; the goal is the issue's: p99 < 50 ms. A seed of the full size takes
about 6 minutes on a busy 2-core machine; set the sizes smaller for a quick run.

Usage: query_bench.py MESHPORT_BINARY
Environment: REGION_QUERY_NODES (default 100000), REGION_QUERY_OBSERVATIONS (default 10000000),
REGION_QUERY_REQUESTS (measured requests, default 200).
"""
import http.client
import json
import os
import random
import re
import sys
import time
import urllib.parse
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Web"))
from postgres import Postgres  # noqa: E402
from servers import Servers  # noqa: E402

import psycopg  # noqa: E402

import seed_region  # noqa: E402

NODES = int(os.environ.get("REGION_QUERY_NODES", "100000"))
OBSERVATIONS = int(os.environ.get("REGION_QUERY_OBSERVATIONS", "10000000"))
REQUESTS = int(os.environ.get("REGION_QUERY_REQUESTS", "200"))
GOAL_MS = 50
QUERIES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "Modules", "MeshRegion", "RegionQueries.swift")
# (name, limit, deep): deep pages start at a cursor collected while paging through every node.
KINDS = [("map", 5000, False), ("first_page", 500, False), ("deep_page_50", 50, True), ("deep_page_500", 500, True)]


def log(text):
    print(f"region query bench: {text}", file=sys.stderr, flush=True)


def nodes_sql():
    """The nodes route's statement, read from RegionQueries.swift so the floor runs exactly what
    the server runs; its interpolations become psycopg parameters."""
    with open(QUERIES) as f:
        source = f.read()
    found = re.search(r'static func nodes\(.*?return """\n(.*?)"""', source, re.S)
    if not found:
        raise RuntimeError(f"{QUERIES}: no nodes(before:limit:) statement found (a `return \"\"\"` literal)")
    sql = found.group(1)
    for name in ("at", "key", "limit"):
        sql = sql.replace(f"\\({name})", f"%({name})s")
    if "\\(" in sql:
        raise RuntimeError(f"{QUERIES}: the nodes statement has an interpolation this benchmark does not know: {sql}")
    return sql


def percentiles(samples):
    ordered = sorted(samples)

    def at(q):
        return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]
    return {"p50_ms": at(0.50), "p95_ms": at(0.95), "p99_ms": at(0.99), "max_ms": ordered[-1], "count": len(ordered)}


class API:
    """One keep-alive HTTP connection to serve, as a browser tab holds."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)

    def nodes(self, limit, before=None):
        query = {"limit": limit} | ({"before": before} if before else {})
        self.connection.request("GET", "/api/region/nodes?" + urllib.parse.urlencode(query))
        answer = self.connection.getresponse()
        body = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"GET /api/region/nodes {query}: {answer.status} {body[:300]!r}")
        return body


def cursor_parameters(cursor):
    """The SQL parameters of an API cursor ("MICROS.kHEX", Modules/MeshRegion/RegionCursor.swift)."""
    if cursor is None:
        return {"at": datetime.max.replace(tzinfo=timezone.utc), "key": b""}
    micros, key = cursor.split(".k")
    return {"at": datetime.fromtimestamp(int(micros) / 1e6, timezone.utc), "key": bytes.fromhex(key)}


def collect_cursors(api):
    """Every `older` cursor of the list in pages of 500: the warm-up, and where deep pages start."""
    cursors, before, pages = [], None, 0
    while True:
        page = json.loads(api.nodes(500, before))
        pages += 1
        if page["nodes"] and page["nodes"][0].get("best") is None and pages == 1:
            raise RuntimeError("the newest node has no best observer: the seed's observer_links are missing")
        before = page.get("older")
        if not before:
            return cursors, pages
        cursors.append(before)


def plan(cursors, count, seed=27):
    rng = random.Random(seed)
    return [(name, limit, rng.choice(cursors) if deep else None) for name, limit, deep in (KINDS[i % len(KINDS)] for i in range(count))]


def measure(sides, requests):
    """Milliseconds of each request by kind and of all, for each side; the sides take turns on
    every request, so a change of the machine's load falls on both."""
    samples = {side: {name: [] for name, _, _ in KINDS} for side in sides}
    for name, limit, before in requests:
        for side, run in sides.items():
            began = time.perf_counter()
            run(limit, before)
            samples[side][name].append((time.perf_counter() - began) * 1000)
    return {side: {"all": percentiles([ms for kind in by_kind.values() for ms in kind])} | {name: percentiles(kind) for name, kind in by_kind.items()}
            for side, by_kind in samples.items()}


def applied_migrations(url, servers):
    try:
        with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as conn:
            return conn.execute("SELECT string_agg(name, ', ' ORDER BY applied_at, name) FROM region_migrations").fetchone()[0]
    except psycopg.errors.UndefinedTable:
        raise RuntimeError(f"serve --history did not migrate the region database; its log: {servers.serve.tail()}") from None


def explain(url, sql, limit, before):
    with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        rows = conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, cursor_parameters(before) | {"limit": limit}).fetchall()
    return "\n".join(row[0] for row in rows)


def main():
    meshport = sys.argv[1]
    sql = nodes_sql()
    pg = Postgres().start()
    servers = None
    try:
        # Bulk seeding writes many GB of WAL: fewer checkpoints, as an operator's import would set,
        # but bounded (the WAL lives on the machine's shared disk).
        for setting in ("max_wal_size = '2GB'", "checkpoint_timeout = '30min'"):
            pg.psql("postgres", f"ALTER SYSTEM SET {setting}")
        pg.psql("postgres", "SELECT pg_reload_conf()")
        url = pg.create("region")
        servers = Servers(meshport, extra=["--history", url]).start()
        log(f"serve --history migrated the schema ({applied_migrations(url, servers)}); seeding {NODES:,} nodes, {OBSERVATIONS:,} observations...")
        loaded, vacuumed = seed_region.seed(url, NODES, OBSERVATIONS, log=log)
        log(f"seeded in {loaded:.1f} s (VACUUM ANALYZE {vacuumed:.1f} s)")
        api = API(servers.url)
        cursors, pages = collect_cursors(api)
        log(f"warm-up: {pages} pages of 500 nodes")
        requests = plan(cursors, REQUESTS)
        for name, limit, before in requests[:len(KINDS) * 5]:
            api.nodes(limit, before)
        results = {"nodes": NODES, "observations": OBSERVATIONS, "observers": seed_region.OBSERVERS, "days": seed_region.DAYS,
                   "seed_seconds": loaded, "vacuum_analyze_seconds": vacuumed, "requests": len(requests),
                   "kinds": {name: limit for name, limit, _ in KINDS}}
        with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True, prepare_threshold=None) as conn:
            def bare(limit, before):
                conn.execute(sql, cursor_parameters(before) | {"limit": limit}).fetchall()
            results |= measure({"api": api.nodes, "sql": bare}, requests)
        api_p99, sql_p99 = results["api"]["all"]["p99_ms"], results["sql"]["all"]["p99_ms"]
        log(f"API p50 {results['api']['all']['p50_ms']:.1f} ms, p95 {results['api']['all']['p95_ms']:.1f} ms, p99 {api_p99:.1f} ms "
            f"(goal < {GOAL_MS} ms: {'met' if api_p99 < GOAL_MS else 'MISSED'}); the bare SQL p99 {sql_p99:.1f} ms")
        for name, _, _ in KINDS:
            log(f"  {name}: API p99 {results['api'][name]['p99_ms']:.1f} ms, SQL p99 {results['sql'][name]['p99_ms']:.1f} ms")
        if api_p99 >= GOAL_MS:
            slowest = max(KINDS, key=lambda kind: results["api"][kind[0]]["p99_ms"])
            log(f"the slowest kind's plan ({slowest[0]}):\n" + explain(url, sql, slowest[1], cursors[len(cursors) // 2] if slowest[2] else None))
        print(json.dumps(results))
    finally:
        if servers:
            servers.stop()
        pg.stop()


if __name__ == "__main__":
    main()
