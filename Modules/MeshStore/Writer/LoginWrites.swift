import Foundation
import GRDB
import MeshCodec

/// Remote node sessions (logins) and the room posts they bring.
enum LoginWrites {
    static func login(_ db: Database, radio: RadioID, node: PublicKey, role: NodeType, permission: UInt8, at: Date, now: Date) throws -> SavedLogin {
        var record = try session(db, radio: radio, node: node, role: role, now: now)
        record.role = role.rawValue
        record.permission = permission
        record.isConnected = true
        record.lastLoginAt = at
        record.updatedAt = now
        try record.update(db)
        return record.value(node: node)
    }

    static func setConnected(_ db: Database, radio: RadioID, node: PublicKey?, connected: Bool, now: Date) throws {
        if let node {
            let record = try session(db, radio: radio, node: node, role: nil, now: now)
            try db.execute(cached: "UPDATE remote_sessions SET isConnected = ?, updatedAt = ? WHERE id = ?", arguments: [connected, now.storeMillis, record.id])
        } else {
            try db.execute(cached: "UPDATE remote_sessions SET isConnected = ?, updatedAt = ? WHERE radioId = ? AND isConnected <> ?",
                           arguments: [connected, now.storeMillis, radio.rawValue, connected])
        }
    }

    /// Room posts, de-duplicated per session (a room server re-sends what we missed).
    static func saveRoomMessages(_ db: Database, radio: RadioID, room: PublicKey, messages: [ContactMessage], receivedAt: Date,
                                 limits: StoreLimits, now: Date) throws -> [SavedMessage] {
        let session = try session(db, radio: radio, node: room, role: .room, now: now)
        guard let sessionId = session.id else { throw StoreError.write(what: "room session", reason: "no row id after insert") }
        var out: [SavedMessage] = []
        var added = 0
        for m in messages {
            var record = RoomMessageRecord(radioId: radio.rawValue, sessionId: sessionId, message: m, timestamp: receivedAt.storeMillis, now: now)
            try record.insert(db, onConflict: .ignore)
            if db.changesCount == 1, let id = record.id {
                added += 1
                out.append(SavedMessage(id: id, isDuplicate: false, conversation: nil, sender: .notApplicable))
            } else {
                let id = try Int64.fetchOne(cached: db, sql: "SELECT id FROM room_messages WHERE sessionId = ? AND dedupeKey = ?",
                                            arguments: [sessionId, record.dedupeKey])
                guard let id else { throw StoreError.write(what: "room message", reason: "insert ignored but no duplicate found") }
                out.append(SavedMessage(id: id, isDuplicate: true, conversation: nil, sender: .notApplicable))
            }
        }
        try Caps.addToThread(db, thread: .room, ownerId: sessionId, radioId: radio.rawValue, added: added, unread: 0,
                             cap: limits.messagesPerConversation, now: now.storeMillis)
        return out
    }

    /// The session with `node`, created when `role` is given; the node must be a contact.
    private static func session(_ db: Database, radio: RadioID, node: PublicKey, role: NodeType?, now: Date) throws -> SavedLoginRecord {
        guard let contactId = try ContactIndex.ids(db, radioId: radio.rawValue, keys: [node])[node] else {
            throw StoreError.notFound(what: "contact \(node.prefix(6).hex) of radio \(radio) (remote node)")
        }
        if let existing = try SavedLoginRecord.fetchOne(cached: db, sql: "SELECT * FROM remote_sessions WHERE radioId = ? AND contactId = ?",
                                                           arguments: [radio.rawValue, contactId]) {
            return existing
        }
        guard let role else { throw StoreError.notFound(what: "session with \(node.prefix(6).hex) of radio \(radio)") }
        var record = SavedLoginRecord(radioId: radio.rawValue, contactId: contactId, role: role, now: now)
        try record.insert(db)
        return record
    }
}
