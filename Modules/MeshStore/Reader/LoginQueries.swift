import Foundation
import GRDB
import MeshCodec

enum LoginQueries {
    static func sessions(_ db: Database, radio: RadioID) throws -> [SavedLogin] {
        try SavedLoginRecord.fetchAll(cached: db, sql: """
            SELECT s.*, c.publicKey AS nodeKey FROM remote_sessions s JOIN contacts c ON c.id = s.contactId
            WHERE s.radioId = ? ORDER BY c.name, s.id
            """, arguments: [radio.rawValue]).compactMap { r in r.nodeKey.map { r.value(node: $0) } }
    }

    static func roomMessages(_ db: Database, radio: RadioID, room: PublicKey, before: TimelineCursor?, limit: Int) throws -> [RoomMessage] {
        guard let sessionId = try Int64.fetchOne(cached: db, sql: """
            SELECT s.id FROM remote_sessions s JOIN contacts c ON c.id = s.contactId WHERE s.radioId = ? AND c.radioId = ? AND c.publicKey = ?
            """, arguments: [radio.rawValue, radio.rawValue, Data(room.bytes)]) else { return [] }
        let cursor = before ?? TimelineCursor(timestamp: .max, id: .max)
        return try RoomMessageRecord.fetchAll(cached: db, sql: """
            SELECT * FROM room_messages WHERE radioId = ? AND sessionId = ? AND (timestamp, id) < (?, ?) ORDER BY timestamp DESC, id DESC LIMIT ?
            """, arguments: [radio.rawValue, sessionId, cursor.timestamp, cursor.id, limit]).map { try $0.value(room: room) }
    }
}
