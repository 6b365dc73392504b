import GRDB

/// Row caps, applied inside the inserting transaction (persistence.md): the oldest rows go.
enum Caps {
    /// A message thread keeps a running `messageCount` on its owner row (contact, channel,
    /// room session), so a save checks its cap in O(1) instead of counting 50,000 rows.
    /// Adds `added` (of which `unread` incoming) and trims the oldest beyond `cap`.
    /// - Returns: the number of rows removed.
    @discardableResult
    static func addToThread(_ db: Database, thread: ThreadTable, ownerId: Int64, radioId: Int64, added: Int, unread: Int,
                            cap: Int, now: Int64) throws -> Int {
        guard added > 0 else { return 0 }
        // A new message brings an archived thread back; older ones stay hidden (archivedAt).
        // Contacts and channels also count unread messages and are un-archived by a new one
        // (older messages stay hidden behind archivedAt); room sessions only count.
        // Conversations also keep the time of their newest message (v7), read off the timeline index.
        let conversation = thread.isConversation
            ? "unreadCount = unreadCount + ?, isArchived = 0, lastMessageAt = (SELECT max(timestamp) FROM \(thread.table) "
                + "WHERE \(thread.ownerColumn) = \(thread.ownerTable).id), "
            : ""
        let counts: [(any DatabaseValueConvertible)?] = thread.isConversation ? [added, unread] : [added]
        let count = try Int.fetchOne(cached: db, sql: """
            UPDATE \(thread.ownerTable) SET messageCount = messageCount + ?, \(conversation)updatedAt = ? \
            WHERE id = ? AND radioId = ? RETURNING messageCount
            """, arguments: StatementArguments(counts + [now, ownerId, radioId])) ?? 0
        let excess = count - cap
        guard excess > 0 else { return 0 }
        try db.execute(cached: """
            DELETE FROM \(thread.table) WHERE id IN (SELECT id FROM \(thread.table) WHERE \(thread.ownerColumn) = ? AND radioId = ? \
            ORDER BY timestamp, id LIMIT ?)
            """, arguments: [ownerId, radioId, excess])
        let removed = db.changesCount
        // Messages that were trimmed unread are no longer unread.
        let unread = thread.isConversation ? ", unreadCount = min(unreadCount, messageCount - ?)" : ""
        try db.execute(cached: "UPDATE \(thread.ownerTable) SET messageCount = messageCount - ?\(unread) WHERE id = ?",
                       arguments: thread.isConversation ? [removed, removed, ownerId] : [removed, ownerId])
        return removed
    }

    /// Keeps the newest `cap` rows of each group a batch touched (a node, or a node and LPP
    /// type: `columns` name the group, each group lists their values). One probe per batch
    /// finds the groups over the cap, an index seek per group that walks at most cap + 1
    /// entries; only those groups (rare) are trimmed.
    static func trimGroups(_ db: Database, table: String, columns: [String], groups: Set<[Int64]>, radioId: Int64, cap: Int) throws -> Int {
        guard !groups.isEmpty else { return 0 }
        let json = "[" + groups.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        let match = columns.enumerated().map { "t.\($1) = j.value->>\($0)" }.joined(separator: " AND ")
        let over = try String.fetchAll(cached: db, sql: """
            SELECT j.value FROM json_each(?) j WHERE (SELECT t.id FROM \(table) t WHERE \(match) AND t.radioId = ? \
            ORDER BY t.recordedAt DESC, t.id DESC LIMIT 1 OFFSET ?) IS NOT NULL
            """, arguments: [json, radioId, cap])
        var removed = 0
        let groupFilter = columns.map { "\($0) = ?" }.joined(separator: " AND ")
        for group in over {
            let values = group.dropFirst().dropLast().split(separator: ",").compactMap { Int64($0) }
            try db.execute(cached: """
                DELETE FROM \(table) WHERE id IN (SELECT id FROM \(table) WHERE \(groupFilter) AND radioId = ? \
                ORDER BY recordedAt DESC, id DESC LIMIT -1 OFFSET ?)
                """, arguments: StatementArguments(values + [radioId, Int64(cap)]))
            removed += db.changesCount
        }
        return removed
    }
}

/// A table of messages counted on an owner row.
struct ThreadTable: Hashable {
    let table: String
    let ownerColumn: String
    let ownerTable: String
    let isConversation: Bool

    static let direct = ThreadTable(table: "messages", ownerColumn: "contactId", ownerTable: "contacts", isConversation: true)
    static let channel = ThreadTable(table: "messages", ownerColumn: "channelId", ownerTable: "channels", isConversation: true)
    static let room = ThreadTable(table: "room_messages", ownerColumn: "sessionId", ownerTable: "remote_sessions", isConversation: false)
}
