"""A PostgreSQL 15 of the browser tests' own (Debian's postgresql-15), in a temporary folder on
a free loopback port; run as `nobody` when the tests run as root, since PostgreSQL refuses root.
`seed_region` fills a migrated region database with a small mesh for the Region view."""
import os
import shutil
import subprocess
import tempfile
import time

from servers import free_port

BIN = "/usr/lib/postgresql/15/bin"
USER = "meshport"


class Postgres:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="meshport-web-pg-")
        self.port = free_port()
        self.proc = None

    def _as_owner(self, argv):
        return ["runuser", "-u", "nobody", "--", *argv] if os.geteuid() == 0 else argv

    def start(self):
        if os.geteuid() == 0:
            shutil.chown(self.folder, "nobody")
        data = os.path.join(self.folder, "data")
        subprocess.run(self._as_owner([f"{BIN}/initdb", "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
        self.proc = subprocess.Popen(self._as_owner([f"{BIN}/postgres", "-D", data, "-p", str(self.port), "-k", self.folder,
                                                     "-c", "listen_addresses=127.0.0.1"]),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/", start_new_session=True)
        deadline = time.monotonic() + 60
        while self.psql("postgres", "SELECT 1", check=False).returncode != 0:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the test PostgreSQL did not start")
            time.sleep(0.2)
        return self

    def psql(self, database, sql, check=True):
        return subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", database, "-v", "ON_ERROR_STOP=1",
                               "-q", "-c", sql], capture_output=True, text=True, check=check)

    def create(self, name):
        self.psql("postgres", f"CREATE DATABASE {name}")
        return f"postgres://{USER}@127.0.0.1:{self.port}/{name}"

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


# Three observers around Amsterdam and four nodes; each observer hears some nodes' adverts
# directly (empty path) at a different SNR; a Public text heard by two observers. Partitions
# are UTC days; yesterday's too, since a few minutes ago is yesterday just after midnight.
# Each node's best observer is kept on its row, as the ingest's upsert keeps it (Docs/region.md).
SEED = """
SELECT region_observation_partition((now() AT TIME ZONE 'UTC')::date - 1);
SELECT region_observation_partition((now() AT TIME ZONE 'UTC')::date);
INSERT INTO observers (key, region, name, online, first_seen, last_seen) VALUES
  ('\\x{o1}', 'AMS', 'Roof North', true, now(), now()),
  ('\\x{o2}', 'AMS', 'Roof South', true, now(), now()),
  ('\\x{o3}', 'AMS', 'Harbour', false, now(), now());
INSERT INTO nodes (key, name, kind, latitude, longitude, position_at, first_seen, last_seen, last_advert) VALUES
  ('\\x{o1}', 'Roof North', 'repeater', 52.40, 4.90, now(), now(), now(), now()),
  ('\\x{o2}', 'Roof South', 'repeater', 52.30, 4.88, now(), now(), now(), now()),
  ('\\x{o3}', 'Harbour', 'repeater', 52.37, 4.80, now(), now(), now(), now()),
  ('\\x{n1}', 'Hilltop', 'repeater', 52.35, 4.95, now(), now(), now(), now()),
  ('\\x{n2}', 'Ann', 'chat', 52.36, 4.85, now(), now(), now(), now()),
  ('\\x{n3}', 'Depot', 'room', 52.33, 4.92, now(), now(), now(), now()),
  ('\\x{n4}', 'Buoy', 'sensor', 52.39, 4.83, now(), now(), now(), now());
INSERT INTO logical_packets (hash, payload_type, first_seen, last_seen, observation_count) VALUES
  ('00000000000000A1', 4, now(), now(), 3), ('00000000000000A2', 4, now(), now(), 2),
  ('00000000000000A3', 4, now(), now(), 2), ('00000000000000B1', 5, now(), now(), 2);
INSERT INTO packets (hash, raw, length, payload_type, route, logical_hash, first_seen, last_seen) VALUES
  (sha256('\\x11a1'), '\\x11a1', 2, 4, 1, '00000000000000A1', now(), now()),
  (sha256('\\x11a2'), '\\x11a2', 2, 4, 1, '00000000000000A2', now(), now()),
  (sha256('\\x11a3'), '\\x11a3', 2, 4, 1, '00000000000000A3', now(), now()),
  (sha256('\\x15b1'), '\\x15b1', 2, 5, 1, '00000000000000B1', now(), now());
INSERT INTO observations (region, observer_key, packet_hash, logical_hash, payload_type, source_key, heard_at, direction, snr, rssi, path) VALUES
  ('AMS', '\\x{o1}', sha256('\\x11a1'), '00000000000000A1', 4, '\\x{n1}', now() - interval '3 min', 'rx', 9.5, -80, ''),
  ('AMS', '\\x{o2}', sha256('\\x11a1'), '00000000000000A1', 4, '\\x{n1}', now() - interval '3 min', 'rx', -2.0, -101, ''),
  ('AMS', '\\x{o3}', sha256('\\x11a1'), '00000000000000A1', 4, '\\x{n1}', now() - interval '3 min', 'rx', -11.0, -118, ''),
  ('AMS', '\\x{o3}', sha256('\\x11a2'), '00000000000000A2', 4, '\\x{n2}', now() - interval '2 min', 'rx', 6.0, -88, ''),
  ('AMS', '\\x{o1}', sha256('\\x11a2'), '00000000000000A2', 4, '\\x{n2}', now() - interval '2 min', 'rx', 1.5, -96, ''),
  ('AMS', '\\x{o2}', sha256('\\x11a3'), '00000000000000A3', 4, '\\x{n3}', now() - interval '1 min', 'rx', 3.0, -94, ''),
  ('AMS', '\\x{o2}', sha256('\\x11a3'), '00000000000000A3', 4, '\\x{n4}', now() - interval '50 sec', 'rx', -6.5, -110, ''),
  ('AMS', '\\x{o1}', sha256('\\x15b1'), '00000000000000B1', 5, NULL, now(), 'rx', 4.0, -92, '\\xaa'),
  ('AMS', '\\x{o2}', sha256('\\x15b1'), '00000000000000B1', 5, NULL, now(), 'rx', 2.0, -97, '\\xaa');
INSERT INTO channel_messages (logical_hash, region, channel_name, channel_hash, sender, text, sent_at, heard_at) VALUES
  ('00000000000000B1', 'AMS', 'Public', 17, 'Ann', 'hello from the region', now(), now());
UPDATE nodes n SET (best_observer, best_snr, best_heard) = (SELECT * FROM region_best_link(n.key))
WHERE n.key IN (SELECT node_key FROM observer_links);
"""


def seed_region(pg, database):
    keys = {name: bytes([byte]).hex() * 32 for name, byte in
            [("o1", 0xA1), ("o2", 0xA2), ("o3", 0xA3), ("n1", 0xB1), ("n2", 0xB2), ("n3", 0xB3), ("n4", 0xB4)]}
    pg.psql(database, SEED.format(**keys))
