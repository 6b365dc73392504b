import Foundation
import GRDB

/// What a conversation's owner row (a contact or a channel slot) keeps about its thread:
/// counters the writer maintains, and the soft-delete watermark.
struct ThreadState: Hashable, Sendable {
    static let columns = ["unreadCount", "messageCount", "isArchived", "archivedAt"]

    var unreadCount = 0
    var messageCount = 0
    var isArchived = false
    /// Messages at or before it stay hidden after a delete.
    var archivedAt: Int64?

    init() {}

    init(row: Row) throws {
        unreadCount = try row.decode(forColumn: "unreadCount")
        messageCount = try row.decode(forColumn: "messageCount")
        isArchived = try row.decode(forColumn: "isArchived")
        archivedAt = try row.decode(forColumn: "archivedAt")
    }

    func write(to s: inout some ColumnSink) {
        s.int(unreadCount)
        s.int(messageCount)
        s.bool(isArchived)
        s.int(archivedAt)
    }
}
