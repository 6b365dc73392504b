import Foundation
import GRDB
import MeshCodec

/// Read state and soft deletion of a conversation (its contact or channel row).
enum ConversationWrites {
    static func markRead(_ db: Database, radio: RadioID, conversation: Conversation, now: Date) throws {
        let owner = try Owner(db, radio: radio, conversation)
        try db.execute(cached: "UPDATE \(owner.table) SET unreadCount = 0, updatedAt = ? WHERE id = ?", arguments: [now.storeMillis, owner.id])
    }

    /// Soft delete: the thread is archived and everything up to now hidden. The messages stay
    /// (their de-duplication keys too), so a late copy of one cannot bring the thread back.
    static func archive(_ db: Database, radio: RadioID, conversation: Conversation, now: Date) throws {
        let owner = try Owner(db, radio: radio, conversation)
        let newest = try Int64.fetchOne(cached: db, sql: "SELECT max(timestamp) FROM messages WHERE \(owner.messageColumn) = ? AND radioId = ?",
                                        arguments: [owner.id, radio.rawValue]) ?? 0
        try db.execute(cached: "UPDATE \(owner.table) SET isArchived = 1, archivedAt = ?, unreadCount = 0, updatedAt = ? WHERE id = ?",
                       arguments: [max(newest, now.storeMillis), now.storeMillis, owner.id])
    }
}

/// The row a conversation hangs on: a contact or a channel slot of the radio.
struct Owner {
    let table: String
    let messageColumn: String
    let id: Int64
    var thread: ThreadTable { table == "contacts" ? .direct : .channel }

    /// The owner row with its archive watermark (messages at or before it are hidden).
    var archivedAt: Int64?

    /// The owner, or nil when the contact or slot has no row (so no messages either).
    static func find(_ db: Database, radio: RadioID, _ c: Conversation) throws -> Owner? {
        let row: Row?
        switch c {
        case let .direct(key):
            row = try Row.fetchOne(cached: db, sql: "SELECT id, archivedAt FROM contacts WHERE radioId = ? AND publicKey = ?",
                                   arguments: [radio.rawValue, Data(key.bytes)])
        case let .channel(index):
            row = try Row.fetchOne(cached: db, sql: "SELECT id, archivedAt FROM channels WHERE radioId = ? AND channelIndex = ?",
                                   arguments: [radio.rawValue, index])
        }
        guard let row else { return nil }
        let direct = if case .direct = c { true } else { false }
        return Owner(table: direct ? "contacts" : "channels", messageColumn: direct ? "contactId" : "channelId",
                     id: try row.decode(forColumn: "id"), archivedAt: try row.decode(forColumn: "archivedAt"))
    }

    init(table: String, messageColumn: String, id: Int64, archivedAt: Int64?) {
        self.table = table
        self.messageColumn = messageColumn
        self.id = id
        self.archivedAt = archivedAt
    }

    init(_ db: Database, radio: RadioID, _ c: Conversation) throws {
        guard let found = try Self.find(db, radio: radio, c) else { throw StoreError.notFound(what: "conversation \(c) of radio \(radio)") }
        self = found
    }
}
