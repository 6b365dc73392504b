import Foundation
import GRDB
import MeshCodec

/// Contacts: extract (values in), fetch what exists in one query per chunk, apply.
enum ContactWrites {
    static func upsert(_ db: Database, radio: RadioID, contacts: [Contact], limits: StoreLimits, now: Date) throws -> [StoredContact] {
        // Later records of the same key win (a sync followed by an advert in one batch).
        var slot: [PublicKey: Int] = [:]
        var unique: [Contact] = []
        for c in contacts {
            if let i = slot[c.publicKey] {
                unique[i] = c
            } else {
                slot[c.publicKey] = unique.count
                unique.append(c)
            }
        }
        let existing = try fetch(db, radioId: radio.rawValue, keys: unique.map(\.publicKey))
        let pendingPrefixes = try unresolvedPrefixes(db, radioId: radio.rawValue)
        var out: [StoredContact] = []
        out.reserveCapacity(unique.count)
        var inserts: BulkInsert?
        for contact in unique {
            let key = contact.publicKey
            if var record = existing[key] {
                if record.contact != contact || record.removedAt != nil {
                    record.contact = contact
                    record.removedAt = nil   // the radio has it (again)
                    record.updatedAt = now
                    try record.update(db)
                }
                out.append(record.value)
            } else {
                var record = ContactRecord(radio: radio, contact: contact, now: now)
                if inserts == nil { inserts = try BulkInsert(db, ContactRecord.self) }
                record.id = try inserts?.insert(record)
                if pendingPrefixes.contains(Data(key.bytes.prefix(6))) {
                    try attachUnresolved(db, record: &record, limits: limits, now: now)
                }
                out.append(record.value)
            }
        }
        try inserts?.finish()
        return out
    }

    /// Marks contacts the radio no longer has; their messages and samples stay.
    static func markRemoved(_ db: Database, radio: RadioID, keys: [PublicKey], now: Date) throws -> Int {
        var count = 0
        let statement = try db.makeStatement(sql: "UPDATE contacts SET removedAt = ?, updatedAt = ? WHERE radioId = ? AND publicKey = ? AND removedAt IS NULL")
        for key in keys {
            try statement.execute(arguments: [now.storeMillis, now.storeMillis, radio.rawValue, Data(key.bytes)])
            count += db.changesCount
        }
        return count
    }

    /// After a full sync: every contact not in `keys` is no longer on the radio.
    static func keepOnly(_ db: Database, radio: RadioID, keys: Set<PublicKey>, now: Date) throws -> [PublicKey] {
        let stored = try Data.fetchAll(db, sql: "SELECT publicKey FROM contacts WHERE radioId = ? AND removedAt IS NULL", arguments: [radio.rawValue])
        let gone = stored.compactMap { PublicKey(Array($0)) }.filter { !keys.contains($0) }
        _ = try markRemoved(db, radio: radio, keys: gone, now: now)
        return gone
    }

    static func fetch(_ db: Database, radioId: Int64, keys: [PublicKey]) throws -> [PublicKey: ContactRecord] {
        var out: [PublicKey: ContactRecord] = [:]
        var start = 0
        while start < keys.count {
            let part = keys[start..<min(start + ContactIndex.chunk, keys.count)]
            let marks = repeatElement("?", count: part.count).joined(separator: ",")
            var args: [(any DatabaseValueConvertible)?] = [radioId]
            args += part.map { Data($0.bytes) }
            for record in try ContactRecord.fetchAll(db, sql: "SELECT * FROM contacts WHERE radioId = ? AND publicKey IN (\(marks))",
                                                     arguments: StatementArguments(args)) {
                out[record.contact.publicKey] = record
            }
            start += ContactIndex.chunk
        }
        return out
    }

    /// Sender prefixes of DMs still waiting for their contact (usually none).
    static func unresolvedPrefixes(_ db: Database, radioId: Int64) throws -> Set<Data> {
        Set(try Data.fetchAll(cached: db, sql: """
            SELECT DISTINCT senderPrefix FROM messages WHERE radioId = ? AND kind = 0 AND contactId IS NULL AND senderPrefix IS NOT NULL
            """, arguments: [radioId]))
    }

    /// Attaches DMs that arrived before this contact was known, unless its prefix is shared.
    static func attachUnresolved(_ db: Database, record: inout ContactRecord, limits: StoreLimits, now: Date) throws {
        guard let id = record.id else { return }
        let prefix = Array(record.contact.publicKey.bytes.prefix(6))
        guard try ContactIndex.matching(db, radioId: record.radioId, prefix: prefix, limit: 2).count == 1 else { return }
        let unread = try Int.fetchOne(cached: db, sql: """
            SELECT count(*) FROM messages WHERE radioId = ? AND kind = 0 AND contactId IS NULL AND senderPrefix = ? AND direction = 0
            """, arguments: [record.radioId, Data(prefix)]) ?? 0
        try db.execute(cached: """
            UPDATE messages SET contactId = ?, senderName = ?, updatedAt = ? WHERE radioId = ? AND kind = 0 AND contactId IS NULL AND senderPrefix = ?
            """, arguments: [id, record.contact.name, now.storeMillis, record.radioId, Data(prefix)])
        let attached = db.changesCount
        try Caps.addToThread(db, thread: .direct, ownerId: id, radioId: record.radioId, added: attached, unread: unread,
                             cap: limits.messagesPerConversation, now: now.storeMillis)
        record = try ContactRecord.fetchOne(cached: db, sql: "SELECT * FROM contacts WHERE id = ?", arguments: [id]) ?? record
    }

    static func setFavourite(_ db: Database, radio: RadioID, key: PublicKey, favourite: Bool, now: Date) throws -> StoredContact {
        guard var record = try fetch(db, radioId: radio.rawValue, keys: [key])[key] else {
            throw StoreError.notFound(what: "contact \(key.prefix(6).hex) of radio \(radio)")
        }
        if favourite { record.contact.flags.insert(.favourite) } else { record.contact.flags.remove(.favourite) }
        record.updatedAt = now
        try record.update(db)
        return record.value
    }
}
