import Foundation
import GRDB
import MeshCodec

extension StoreReader {
    /// Conversations that have messages, the most recently active first: DMs and channel
    /// slots together, archived ones left out (a new message brings one back).
    public func conversations(_ radio: RadioID, limit: Int = 100) throws(StoreError) -> [ConversationSummary] {
        try database.read("conversations of radio \(radio)") { db in try ConversationQueries.recent(db, radio: radio, limit: limit) }
    }

    /// The contact list filtered in SQL (favourites first, then by name).
    public func contacts(_ radio: RadioID, matching filter: ContactFilter, limit: Int = .max, offset: Int = 0) throws(StoreError) -> [StoredContact] {
        try database.readOne("contacts of radio \(radio) matching \(filter.text ?? "") \(filter.type.map { "\($0)" } ?? "")") { db in
            try ContactQueries.list(db, radio: radio, filter: filter, limit: limit, offset: offset)
        }
    }
}

extension ConversationQueries {
    /// Served by the partial indexes contacts_activity and channels_activity (v7); the newest
    /// visible message of each is one seek on its timeline index.
    static let recentSQL = """
        SELECT c.publicKey AS key, NULL AS slot, c.name, c.unreadCount, c.messageCount, c.lastMessageAt,
            (SELECT m.id FROM messages m WHERE m.contactId = c.id AND m.timestamp > coalesce(c.archivedAt, -1)
             ORDER BY m.timestamp DESC, m.id DESC LIMIT 1) AS lastId
        FROM contacts c WHERE c.radioId = ? AND c.lastMessageAt IS NOT NULL AND c.isArchived = 0
        UNION ALL
        SELECT NULL, ch.channelIndex, ch.name, ch.unreadCount, ch.messageCount, ch.lastMessageAt,
            (SELECT m.id FROM messages m WHERE m.channelId = ch.id AND m.timestamp > coalesce(ch.archivedAt, -1)
             ORDER BY m.timestamp DESC, m.id DESC LIMIT 1)
        FROM channels ch WHERE ch.radioId = ? AND ch.lastMessageAt IS NOT NULL AND ch.isArchived = 0
        ORDER BY lastMessageAt DESC LIMIT ?
        """

    static func recent(_ db: Database, radio: RadioID, limit: Int) throws -> [ConversationSummary] {
        guard limit > 0 else { throw StoreError.invalidArgument(what: "conversation list size \(limit)", reason: "must be at least 1") }
        return try Row.fetchAll(cached: db, sql: recentSQL, arguments: [radio.rawValue, radio.rawValue, limit]).map { row in
            let conversation: Conversation
            if try row.decode(Data?.self, forColumn: "key") != nil {
                conversation = .direct(try row.publicKey("key", table: "contacts"))
            } else {
                conversation = .channel(try row.decode(forColumn: "slot"))
            }
            let last = try row.decode(Int64?.self, forColumn: "lastId").flatMap { try MessageWrites.fetch(db, radioId: radio.rawValue, id: $0)?.value }
            return ConversationSummary(conversation: conversation, name: try row.decode(forColumn: "name"), unreadCount: try row.decode(forColumn: "unreadCount"),
                                       messageCount: try row.decode(forColumn: "messageCount"), lastMessageAt: try row.millis("lastMessageAt"),
                                       lastMessage: last)
        }
    }
}

extension ContactQueries {
    static func list(_ db: Database, radio: RadioID, filter: ContactFilter, limit: Int, offset: Int) throws -> [StoredContact] {
        var sql = "SELECT * FROM contacts WHERE radioId = ? AND removedAt IS NULL"
        var arguments: [(any DatabaseValueConvertible)?] = [radio.rawValue]
        if let type = filter.type {
            sql += " AND type = ?"
            arguments.append(Int(type.rawValue))
        }
        if let text = filter.text?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            // LIKE is case-insensitive for ASCII; the pattern's own wildcards are escaped.
            let escaped = text.replacingAll("\\", with: "\\\\").replacingAll("%", with: "\\%").replacingAll("_", with: "\\_")
            sql += " AND (name LIKE ? ESCAPE '\\' OR hex(publicKey) LIKE ? ESCAPE '\\')"
            arguments += ["%" + escaped + "%", escaped.uppercased() + "%"]
        }
        sql += " ORDER BY isFavourite DESC, name LIMIT ? OFFSET ?"
        arguments += [limit == .max ? -1 : limit, offset]
        return try ContactRecord.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map(\.value)
    }
}
