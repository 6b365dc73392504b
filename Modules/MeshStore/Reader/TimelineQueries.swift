import GRDB

/// Conversation pages by (timestamp, id) cursor: each page is one index range scan,
/// however deep into the history it is (no OFFSET).
enum TimelineQueries {
    static func page(_ db: Database, radio: RadioID, conversation: Conversation, before: TimelineCursor?, limit: Int) throws -> TimelinePage {
        guard limit > 0 else { throw StoreError.invalidArgument(what: "timeline page size \(limit)", reason: "must be at least 1") }
        guard let owner = try Owner.find(db, radio: radio, conversation) else { return TimelinePage(messages: [], older: nil) }
        let cursor = before ?? TimelineCursor(timestamp: .max, id: .max)
        var records = try MessageRecord.fetchAll(cached: db, sql: MessageRecord.selectSQL + """
             WHERE m.radioId = ? AND m.\(owner.messageColumn) = ? AND m.timestamp > ? AND (m.timestamp, m.id) < (?, ?)
            ORDER BY m.timestamp DESC, m.id DESC LIMIT ?
            """, arguments: [radio.rawValue, owner.id, owner.archivedAt ?? -1, cursor.timestamp, cursor.id, limit + 1])
        // One row more than asked tells whether an older page exists.
        let more = records.count > limit
        if more { records.removeLast() }
        let messages = records.map(\.value)
        return TimelinePage(messages: messages, older: more ? messages.last?.cursor : nil)
    }
}
