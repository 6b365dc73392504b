#!/usr/bin/env python3
"""Seeds a region database that Meshport has migrated (Modules/MeshRegion/RegionMigrations.swift)
with a large, skewed mesh for the region query benchmark (query_bench.py): NODES nodes heard
over DAYS days by OBSERVERS gateways, OBSERVATIONS hearings in all.

Everything is made on the server by a few `INSERT ... SELECT ... FROM generate_series(...)`
statements from one unlogged helper table of logical packets (`seed_packets`, dropped at the
end), so the rows agree with one another as ingest would leave them:

- every node sends at least one advert; further adverts and all other traffic follow a power
  law (a few busy repeaters, many quiet chat nodes); a sixth of the packets are adverts;
- each logical packet is heard by 1 to 7 observers (most by 1 to 3), near its sender's home
  gateway, the nearest at the best SNR; some hearings came through a repeater (a one-hop path,
  its own raw packet row), the others directly (the advert hearings that feed `observer_links`);
- observations go through the parent table, one statement per day partition (made by the
  schema's own `region_observation_partition`), so the migration's triggers keep
  `observer_links` and `region_hours` as they would for ingest;
- `logical_packets.observation_count`, first/last seen of packets, nodes and observers, and
  `node_adverts` follow from the same hearings.

Usage: seed_region.py POSTGRES_URL [NODES] [OBSERVATIONS]   (defaults 100,000 and 10,000,000)
"""
import sys
import time

import psycopg

OBSERVERS = 300
DAYS = 30
REGIONS = ["AMS", "RTM", "UTC", "EIN", "GRQ"]

# Any observer near a node: its home gateway and the next ones out (37 is prime to 300, so the
# seven are distinct).
OBSERVER_OF = "((s.home + j * 37) %% {observers})"
NODE_KEY = "sha256(convert_to('node ' || {n}, 'UTF8'))"
OBSERVER_KEY = "sha256(convert_to('observer ' || {i}, 'UTF8'))"

STEPS = [
    ("observers", f"""
        INSERT INTO observers (key, region, name, model, firmware, client_version, radio, online, first_seen, last_seen)
        SELECT {OBSERVER_KEY.format(i='i')}, (%(regions)s::text[])[i %% {len(REGIONS)} + 1], 'Gateway ' || i,
               'Heltec V3', 'v1.17.1', 'meshport seed', '869.618,62.5,8,8', random() < 0.95,
               now() - make_interval(days => %(days)s), now() - make_interval(secs => random() * 600)
        FROM generate_series(0, %(observers)s - 1) i
        """),
    # Every node's first advert is one of the first NODES packets; the rest pick a node by a
    # power law. `k` observers hear each packet, cut so the hearings add up to OBSERVATIONS.
    ("logical packets (helper)", """
        CREATE UNLOGGED TABLE seed_packets AS
        WITH drawn AS (
            SELECT p, random() AS kind_draw, random() AS node_draw, random() AS time_draw,
                   1 + floor(7 * random() ^ 2)::int AS k, random() AS home_draw
            FROM generate_series(1, %(packets)s) p),
        counted AS (
            SELECT *, sum(k) OVER (ORDER BY p) - k AS before FROM drawn)
        SELECT p,
               CASE WHEN p <= %(nodes)s THEN p WHEN kind_draw < 1.0 / 6 THEN 1 + floor(%(nodes)s * node_draw ^ 3)::bigint END AS node,
               least(k, %(observations)s - before)::int AS k,
               now() - make_interval(secs => time_draw * %(days)s * 86400) AS heard_at,
               home_draw
        FROM counted WHERE before < %(observations)s
        """),
    ("logical packets (helper, columns)", f"""
        CREATE UNLOGGED TABLE seed_hearings AS
        SELECT p, node, k, heard_at, type, home, payload,
               upper(left(encode(sha256(int2send(type::smallint) || payload), 'hex'), 16)) AS logical_hash,
               set_byte('\\x0000'::bytea, 0, type * 4 + 1) || payload AS direct_raw,
               set_byte('\\x000100'::bytea, 0, type * 4 + 1) || payload AS relayed_raw,
               EXISTS (SELECT 1 FROM generate_series(1, k - 1) j WHERE (p + j) %% 5 < 2) AS relayed
        FROM (
            SELECT p, node, k, heard_at,
                   CASE WHEN node IS NOT NULL THEN 4 ELSE (ARRAY[2, 2, 2, 5, 5, 5, 3, 3, 8, 0])[1 + (p %% 10)::int] END AS type,
                   CASE WHEN node IS NOT NULL THEN (node * 7919) %% {OBSERVERS} ELSE floor(home_draw * {OBSERVERS})::int END AS home,
                   CASE WHEN node IS NOT NULL THEN {NODE_KEY.format(n='node')} || int4send(extract(epoch FROM heard_at)::int) || sha256(int8send(p))
                        ELSE sha256(int8send(p)) || substr(sha256(int8send(-p)), 1, (p %% 32)::int) END AS payload
            FROM seed_packets) t
        """),
    ("logical packets (helper, index)", "CREATE INDEX seed_hearings_heard ON seed_hearings (heard_at)"),
    ("logical packets", """
        INSERT INTO logical_packets (hash, payload_type, first_seen, last_seen, observation_count)
        SELECT logical_hash, type, heard_at, heard_at + make_interval(secs => (k - 1) / 1000.0), k
        FROM seed_hearings ORDER BY logical_hash ON CONFLICT DO NOTHING
        """),
    ("packets", """
        INSERT INTO packets (hash, raw, length, payload_type, route, logical_hash, first_seen, last_seen)
        SELECT sha256(raw), raw, length(raw), type, 1, logical_hash, heard_at, heard_at + make_interval(secs => (k - 1) / 1000.0)
        FROM seed_hearings, LATERAL (SELECT direct_raw AS raw UNION ALL SELECT relayed_raw WHERE relayed) r
        ORDER BY 1 ON CONFLICT DO NOTHING
        """),
]

# One day of hearings: observer j of a packet hears it j ms after the first, about 3.5 dB worse
# per step out from the home gateway; the hearings with (p + j) % 5 < 2 came through a repeater.
OBSERVATIONS_OF_DAY = f"""
    INSERT INTO observations (region, observer_key, packet_hash, logical_hash, payload_type, source_key, heard_at, direction, snr, rssi, path)
    SELECT (%(regions)s::text[])[{OBSERVER_OF} %% {len(REGIONS)} + 1], {OBSERVER_KEY.format(i=OBSERVER_OF)},
           sha256(CASE WHEN relayed_hop THEN s.relayed_raw ELSE s.direct_raw END), s.logical_hash, s.type,
           CASE WHEN s.node IS NOT NULL THEN {NODE_KEY.format(n='s.node')} END,
           s.heard_at + make_interval(secs => j / 1000.0), 'rx', snr, greatest(-130, least(-40, round(-100 + snr * 2.5 - random() * 8)))::int,
           CASE WHEN relayed_hop THEN '\\x00'::bytea ELSE ''::bytea END
    FROM seed_hearings s, generate_series(0, s.k - 1) j,
         LATERAL (SELECT j > 0 AND (s.p + j) %% 5 < 2 AS relayed_hop,
                         greatest(-20, least(13, round((10 - 3.5 * j - random() * 8)::numeric * 4) / 4))::real AS snr) h
    WHERE s.heard_at >= %(day)s AND s.heard_at < %(day)s + interval '1 day'
    ORDER BY s.heard_at, j
    """.format(observers=OBSERVERS)

FINISH = [
    # Each with its best observer, as ingest's upsert keeps it (Modules/MeshRegion/RegionWrites.swift).
    ("nodes", f"""
        INSERT INTO nodes (key, name, kind, latitude, longitude, position_at, first_seen, last_seen, last_advert,
                           best_observer, best_snr, best_heard)
        SELECT g.*, b.* FROM (
        SELECT {NODE_KEY.format(n='node')}, 'Node ' || node,
               (ARRAY['chat', 'chat', 'chat', 'chat', 'chat', 'chat', 'chat', 'repeater', 'repeater', 'repeater', 'room', 'sensor', 'sensor'])[1 + (node %% 13)::int],
               CASE WHEN node %% 5 > 0 THEN 51.5 + (node * 0.61803398875 %% 1) * 1.7 END,
               CASE WHEN node %% 5 > 0 THEN 3.8 + (node * 0.41421356237 %% 1) * 3.0 END,
               CASE WHEN node %% 5 > 0 THEN max(heard_at) END,
               min(heard_at), max(heard_at + make_interval(secs => (k - 1) / 1000.0)), max(heard_at)
        FROM seed_hearings WHERE node IS NOT NULL GROUP BY node) g(key)
        LEFT JOIN LATERAL region_best_link(g.key) b ON true
        """),
    ("node adverts", """
        INSERT INTO node_adverts (node_key, advertised_at, name, kind, latitude, longitude, logical_hash, heard_at)
        SELECT n.key, date_trunc('second', s.heard_at) - interval '2 seconds', n.name, n.kind, n.latitude, n.longitude, s.logical_hash, s.heard_at
        FROM seed_hearings s JOIN nodes n ON n.key = sha256(convert_to('node ' || s.node, 'UTF8'))
        WHERE s.node IS NOT NULL ON CONFLICT DO NOTHING
        """),
    ("helpers dropped", "DROP TABLE seed_hearings, seed_packets"),
]


def seed(url, nodes, observations, log=print):
    """Fills the database at `url` (migrated, empty); returns the seconds of the load and of VACUUM ANALYZE."""
    params = {"nodes": nodes, "observations": observations, "observers": OBSERVERS, "days": DAYS, "regions": REGIONS,
              # About 2.8 hearings per packet: 10% spare so the cut always falls inside.
              "packets": int(observations / 2.8 * 1.1) + nodes}
    began = time.monotonic()
    with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        # One session's random(): the same mesh every run (no parallel workers drawing too).
        conn.execute("SET max_parallel_workers_per_gather = 0")
        conn.execute("SET TIME ZONE 'UTC'")
        conn.execute("SET synchronous_commit = off")
        conn.execute("SET work_mem = '256MB'")
        conn.execute("SET maintenance_work_mem = '512MB'")
        conn.execute("SELECT setseed(0.27)")
        for name, sql in STEPS:
            step(conn, name, sql, params, log)
        days = [row[0] for row in conn.execute(
            "SELECT d::date FROM generate_series(date_trunc('day', now() - make_interval(days => %(days)s), 'UTC'), now() + interval '1 day', interval '1 day') d",
            params)]
        for day in days:
            conn.execute("SELECT region_observation_partition(%s)", (day,))
        stepped = time.monotonic()
        for day in days:
            conn.execute(OBSERVATIONS_OF_DAY, dict(params, day=day))
        log(f"observations: {conn.execute('SELECT count(*) FROM observations').fetchone()[0]:,} in {len(days)} day partitions "
            f"in {time.monotonic() - stepped:.1f} s")
        for name, sql in FINISH:
            step(conn, name, sql, params, log)
        loaded = time.monotonic() - began
        analyzed = time.monotonic()
        # What autovacuum would have done by the time anyone reads: statistics and the visibility map.
        conn.execute("VACUUM ANALYZE")
        return loaded, time.monotonic() - analyzed


def step(conn, name, sql, params, log):
    began = time.monotonic()
    rows = conn.execute(sql, params).rowcount
    counted = f"{rows:,} rows " if rows and rows > 0 else ""
    log(f"{name}: {counted}in {time.monotonic() - began:.1f} s")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: seed_region.py POSTGRES_URL [NODES] [OBSERVATIONS]")
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    observations = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000_000
    loaded, analyzed = seed(sys.argv[1], nodes, observations)
    print(f"seeded in {loaded:.1f} s, VACUUM ANALYZE {analyzed:.1f} s")


if __name__ == "__main__":
    main()
