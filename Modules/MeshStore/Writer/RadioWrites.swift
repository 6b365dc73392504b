import Foundation
import GRDB
import MeshCodec

/// The radios table: identity and settings (an immediate write).
enum RadioWrites {
    static func register(_ db: Database, info: SelfInfo, now: Date) throws -> StoredRadio {
        let id = RadioID(publicKey: info.publicKey)
        if var record = try RadioRecord.fetchOne(cached: db, sql: "SELECT * FROM radios WHERE id = ?", arguments: [id.rawValue]) {
            guard record.info.publicKey == info.publicKey else {
                throw StoreError.invalidArgument(what: "radio \(info.publicKey.prefix(8).hex)",
                                                 reason: "its id collides with radio \(record.info.publicKey.hex) (same first 8 key bytes)")
            }
            if record.info != info {
                record.info = info
                record.updatedAt = now
                try record.update(db)
            }
            return record.value
        }
        let record = RadioRecord(info: info, now: now)
        try record.insert(db)
        return record.value
    }

    static func update(_ db: Database, radio: RadioID, what: String, set: String, arguments: StatementArguments) throws {
        try db.execute(cached: "UPDATE radios SET \(set) WHERE id = ?", arguments: arguments + [radio.rawValue])
        guard db.changesCount == 1 else { throw StoreError.notFound(what: "radio \(radio) (to \(what))") }
    }

    /// Removes everything of one radio, children first (faster than cascading row by row).
    static func delete(_ db: Database, radio: RadioID) throws {
        for table in ["room_messages", "remote_sessions", "messages", "positions", "telemetry_samples", "stats_samples", "channels", "contacts", "radios"] {
            try db.execute(cached: "DELETE FROM \(table) WHERE \(table == "radios" ? "id" : "radioId") = ?", arguments: [radio.rawValue])
        }
    }
}
