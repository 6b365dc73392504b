#!/usr/bin/env python3
"""Writes the migration fixtures under Tests/MeshStoreTests/Fixtures: a database of each
earlier schema, with data, dumped as SQL.

Run once, when a schema ships (its migration becomes the last one before a new one), and
commit the result. Never regenerate the fixture of a shipped schema: it stands for databases
users already have, and the test compares it with what the migrations create.
Usage: Tools/Store/make-fixtures.py v1-initial|v2-room-messages
"""
import hashlib
import re
import sqlite3
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = (ROOT / "Modules/MeshStore/Schema/Migrations.swift").read_text()
ORDER = ["v1-initial", "v2-room-messages"]
SQL_NAMES = {"v1-initial": "v1Initial", "v2-room-messages": "v2RoomMessages"}


def migration_sql(name):
    body = re.search(r'static let %s = """\n(.*?)\n\s*"""' % SQL_NAMES[name], MIGRATIONS, re.S).group(1)
    return "\n".join(line[8:] for line in body.split("\n"))


def dedupe(kind, origin, timestamp, text_type, text):
    data = bytes([ord(kind), len(origin)]) + bytes(origin) + struct.pack("<IB", timestamp, text_type) + text.encode()
    return struct.unpack(">q", hashlib.sha256(data).digest()[:8])[0]


RADIO_KEY = bytes(range(0xA0, 0xC0))
RADIO_ID = struct.unpack(">q", RADIO_KEY[:8])[0]
ALICE = bytes([0x11] * 32)
BOB = bytes([0x22] * 31 + [0x01])
ROOM = bytes([0x33] * 32)
T = 1_760_000_000_000


def fill_v1(db):
    db.execute("""INSERT INTO radios VALUES (?, ?, 'Base station', 1, 20, 22, 52520000, 13400000, 0, 0, 0, 0, 869525, 250000, 11, 5,
                  1760000100, ?, ?, ?)""", (RADIO_ID, RADIO_KEY, T + 5000, T, T + 5000))
    contacts = [
        (1, ALICE, 1, 1, 0x41, 1, bytes([0xAB, 0xCD]), "Alice", 52500000, 13300000, 1760000050, 1760000060, 1, 2, 1, 0, None),
        (2, BOB, 2, 0, 0xFF, 0, b"", "Bob's repeater", 0, 0, 1760000070, 1760000080, 0, 1, 0, 1, T + 4000),
        (3, ROOM, 3, 0, 0x00, 0, b"", "Room 🏠", 0, 0, 1760000090, 1760000100, 0, 0, 0, 0, None),
    ]
    for c in contacts:
        db.execute("INSERT INTO contacts VALUES (?, ?, " + ", ".join("?" * 16) + ", ?, ?)", (c[0], RADIO_ID) + c[1:] + (T, T + 1000))
    db.execute("INSERT INTO channels VALUES (1, ?, 0, 'Public', ?, 'public', 1, 1, 0, NULL, ?, ?)",
               (RADIO_ID, bytes.fromhex("8b3387e9c5cdea6ac9e5edbaa115cd72"), T, T))
    db.execute("INSERT INTO channels VALUES (2, ?, 1, '#test', ?, 'hashtag', 0, 1, 0, NULL, ?, ?)",
               (RADIO_ID, hashlib.sha256(b"#test").digest()[:16], T, T))
    # direct incoming, direct outgoing (delivered), channel incoming, channel outgoing (sent), unresolved DM
    msgs = [
        (1, 0, 1, None, 0, 5, None, 0, None, 0, 12, 0xFF, 0, ALICE[:6], "Alice", "Привет, как дела? 👋", 1760000200, T + 2000,
         dedupe("d", ALICE[:6], 1760000200, 0, "Привет, как дела? 👋")),
        (2, 0, 1, None, 1, 3, 0xDEADBEEF, 1, 1840, 0, None, None, 0, None, None, "Fine, thanks! 東京に行く", 1760000210, T + 2100, 1234567),
        (3, 1, None, 1, 0, 5, None, 0, None, 0, -8, 2, 0, None, "Carol", "mesh test from the hill", 1760000220, T + 2200,
         dedupe("c", [0], 1760000220, 0, "Carol: mesh test from the hill")),
        (4, 1, None, 2, 1, 2, 0x01020304, 0, None, 3, None, None, 0, None, None, "hashtag hello 🎉", 1760000230, T + 2300, 7654321),
        (5, 0, 2, None, 0, 5, None, 0, None, 0, 4, 0xFF, 1, BOB[:6], "Bob's repeater", "status ok", 1760000240, T + 2400,
         dedupe("d", BOB[:6], 1760000240, 1, "status ok")),
        (6, 0, None, None, 0, 5, None, 0, None, 0, 0, 0xFF, 0, bytes([0x99] * 6), None, "who is this?", 1760000250, T + 2500,
         dedupe("d", [0x99] * 6, 1760000250, 0, "who is this?")),
    ]
    for m in msgs:
        db.execute("INSERT INTO messages VALUES (?, ?, " + ", ".join("?" * 18) + ", ?, ?)", (m[0], RADIO_ID) + m[1:] + (T + 3000, T + 3000))
    db.execute("INSERT INTO positions VALUES (1, ?, 1, 52500000, 13300000, 34.5, 0, ?, ?, ?)", (RADIO_ID, T + 100, T + 100, T + 100))
    db.execute("INSERT INTO positions VALUES (2, ?, 1, 52510000, 13310000, NULL, 1, ?, ?, ?)", (RADIO_ID, T + 200, T + 200, T + 200))
    db.execute("INSERT INTO telemetry_samples VALUES (1, ?, 2, 1, 103, 21.5, NULL, NULL, ?, ?, ?)", (RADIO_ID, T + 300, T + 300, T + 300))
    db.execute("INSERT INTO telemetry_samples VALUES (2, ?, 2, 1, 136, 52.5, 13.4, 120.0, ?, ?, ?)", (RADIO_ID, T + 310, T + 310, T + 310))
    db.execute("""INSERT INTO stats_samples VALUES (1, ?, NULL, ?, 4100, 3600, 0, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  NULL, NULL, NULL, NULL, ?, ?)""", (RADIO_ID, T + 400, T + 400, T + 400))
    db.execute("""INSERT INTO stats_samples VALUES (2, ?, 2, ?, 3900, 86400, NULL, 0, -110, -70, 24, 120, 300, 1000, 900, 500, 400,
                  600, 400, 3, ?, ?)""", (RADIO_ID, T + 410, T + 410, T + 410))


def fill_v2(db):
    fill_v1(db)
    db.execute("INSERT INTO remote_sessions VALUES (1, ?, 3, 3, 2, 1, ?, 2, ?, ?)", (RADIO_ID, T + 600, T + 600, T + 600))
    posts = [(1, bytes([0x44] * 4), "first post", 1760000300), (2, bytes([0x55] * 4), "второй пост 📮", 1760000310)]
    for pid, author, text, ts in posts:
        db.execute("INSERT INTO room_messages VALUES (?, ?, 1, ?, ?, 2, 8, ?, ?, ?, ?, ?)",
                   (pid, RADIO_ID, author, text, ts, T + 700 + pid, dedupe("r", author, ts, 2, text), T + 700, T + 700))


def main():
    target = sys.argv[1]
    path = ROOT / "Tests/MeshStoreTests/Fixtures" / f"{target}.sql"
    db = sqlite3.connect(":memory:")
    for name in ORDER[: ORDER.index(target) + 1]:
        db.executescript(migration_sql(name))
    db.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    for name in ORDER[: ORDER.index(target) + 1]:
        db.execute("INSERT INTO grdb_migrations VALUES (?)", (name,))
    {"v1-initial": fill_v1, "v2-room-messages": fill_v2}[target](db)
    db.commit()
    path.write_text("\n".join(db.iterdump()) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
