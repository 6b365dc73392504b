import Foundation
import GRDB
import MeshCodec

/// Row of `room_messages`: a post a room server pushed, de-duplicated per session.
struct RoomMessageRecord: FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "room_messages"

    var id: Int64?
    var radioId: Int64
    var sessionId: Int64
    var authorPrefix: [UInt8]
    var text: String
    var textType: UInt8
    var snrX4: Int8?
    var senderTimestamp: UInt32
    var timestamp: Int64
    var dedupeKey: Int64
    var createdAt: Date
    var updatedAt: Date

    init(radioId: Int64, sessionId: Int64, message: ContactMessage, timestamp: Int64, now: Date) {
        self.radioId = radioId
        self.sessionId = sessionId
        // Signed room posts name their author; anything else is the room speaking itself.
        authorPrefix = message.authorPrefix?.bytes ?? message.senderPrefix.bytes
        text = message.text
        textType = message.textType.rawValue
        snrX4 = message.format == .v3 ? message.snrX4 : nil
        senderTimestamp = message.senderTimestamp
        self.timestamp = timestamp
        dedupeKey = DedupeKey.room(message)
        createdAt = now
        updatedAt = now
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        radioId = try row.decode(forColumn: "radioId")
        sessionId = try row.decode(forColumn: "sessionId")
        authorPrefix = try row.bytes("authorPrefix")
        text = try row.decode(forColumn: "text")
        textType = try row.decode(forColumn: "textType")
        snrX4 = try row.decode(forColumn: "snrX4")
        senderTimestamp = try row.decode(forColumn: "senderTimestamp")
        timestamp = try row.decode(forColumn: "timestamp")
        dedupeKey = try row.decode(forColumn: "dedupeKey")
        createdAt = try row.millis("createdAt")
        updatedAt = try row.millis("updatedAt")
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id
        c["radioId"] = radioId
        c["sessionId"] = sessionId
        c["authorPrefix"] = Data(authorPrefix)
        c["text"] = text
        c["textType"] = textType
        c["snrX4"] = snrX4
        c["senderTimestamp"] = senderTimestamp
        c["timestamp"] = timestamp
        c["dedupeKey"] = dedupeKey
        c["createdAt"] = createdAt.storeMillis
        c["updatedAt"] = updatedAt.storeMillis
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func value(room: PublicKey) throws -> RoomMessage {
        guard let author = KeyPrefix(authorPrefix) else {
            throw CorruptRow(table: Self.databaseTableName, column: "authorPrefix", reason: "\(authorPrefix.count)-byte prefix")
        }
        return RoomMessage(id: id ?? 0, radio: RadioID(rawValue: radioId), room: room, authorPrefix: author, text: text,
                           textType: TextType(rawValue: textType), snrX4: snrX4, senderTimestamp: senderTimestamp,
                           timestamp: Date(storeMillis: timestamp), createdAt: createdAt, updatedAt: updatedAt)
    }
}
