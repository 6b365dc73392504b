import Foundation
import GRDB
import MeshCodec
import MeshStore

/// The baselines: the same schema and data, written and read the way a first version does.
/// Each row is its own autocommit statement, prepared anew (no statement reuse, no batching);
/// reads scan instead of using the indexes or the FTS index.
struct Naive {
    let queue: DatabaseQueue

    /// A connection to an existing MeshStore file with the store's pragmas (same durability),
    /// so only the technique differs.
    init(path: String, synchronous: String, journal: String = "WAL") throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = \(journal)")
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        queue = try DatabaseQueue(path: path, configuration: config)
    }

    /// Seeds like `Seeder`, one autocommit INSERT per row.
    func seed(radioId: Int64, nodes: Int, perNode: Int) throws {
        var data = SyntheticData(seed: 0xBA5E)
        let now: Int64 = 1_760_000_000_000
        try queue.writeWithoutTransaction { db in
            for n in 0..<nodes {
                let key = Data(data.publicKey().bytes)
                try db.execute(sql: """
                    INSERT INTO contacts (radioId, publicKey, type, name, lastAdvert, lastmod, createdAt, updatedAt) VALUES (?, ?, 1, ?, 0, 0, ?, ?)
                    """, arguments: [radioId, key, data.nodeName(n), now, now])
                let contactId = db.lastInsertedRowID
                for i in 0..<perNode {
                    let at = now - Int64(i * 600_000)
                    try db.execute(sql: """
                        INSERT INTO positions (radioId, contactId, latitudeE6, longitudeE6, source, recordedAt, createdAt, updatedAt)
                        VALUES (?, ?, ?, ?, 0, ?, ?, ?)
                        """, arguments: [radioId, contactId, data.int(0..<90_000_000), data.int(0..<180_000_000), at, now, now])
                    try db.execute(sql: """
                        INSERT INTO telemetry_samples (radioId, contactId, lppChannel, lppType, value, recordedAt, createdAt, updatedAt)
                        VALUES (?, ?, 1, 103, ?, ?, ?, ?)
                        """, arguments: [radioId, contactId, data.double(0...30), at, now, now])
                    try db.execute(sql: """
                        INSERT INTO stats_samples (radioId, contactId, recordedAt, batteryMillivolts, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [radioId, contactId, at, data.int(3300..<4200), now, now])
                }
            }
        }
    }

    /// One received channel message per autocommit INSERT (FTS triggers included).
    func saveMessage(radioId: Int64, channelId: Int64, text: String, seq: Int) throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: """
                INSERT INTO messages (radioId, kind, channelId, direction, status, text, senderTimestamp, timestamp, dedupeKey, createdAt, updatedAt)
                VALUES (?, 1, ?, 0, 5, ?, ?, ?, ?, ?, ?)
                """, arguments: [radioId, channelId, text, seq, 1_770_000_000_000 + Int64(seq), Int64(seq) &* 0x1E37_79B9_7F4A_7C15, 0, 0])
        }
    }

    /// Prefix lookup by scanning every contact's key as hex.
    func lookup(radioId: Int64, prefix: KeyPrefix) throws -> Int {
        try queue.read { db in
            try Int.fetchAll(db, sql: "SELECT id FROM contacts NOT INDEXED WHERE radioId = ? AND hex(publicKey) LIKE ? LIMIT 2",
                             arguments: [radioId, prefix.hex.uppercased() + "%"]).count
        }
    }

    /// A timeline page by OFFSET, without the timeline index.
    func page(radioId: Int64, channelId: Int64, offset: Int) throws -> Int {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM messages NOT INDEXED WHERE radioId = ? AND channelId = ? ORDER BY timestamp DESC, id DESC LIMIT 50 OFFSET ?
                """, arguments: [radioId, channelId, offset]).count
        }
    }

    /// Search by LIKE over every message's text.
    func search(radioId: Int64, word: String) throws -> Int {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM messages WHERE radioId = ? AND text LIKE ? ORDER BY timestamp DESC LIMIT 20",
                             arguments: [radioId, "%\(word)%"]).count
        }
    }
}
