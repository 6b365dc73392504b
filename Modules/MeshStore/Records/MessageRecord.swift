import Foundation
import GRDB
import MeshCodec

/// Row of `messages`: a direct or channel message, either direction.
struct MessageRecord: FetchableRecord, MutablePersistableRecord, RowValues, Sendable {
    static let databaseTableName = "messages"
    static let columns = [
        "radioId", "kind", "contactId", "channelId", "direction", "status", "ackCode", "attempt", "roundTripMs", "heardRepeats", "snrX4",
        "pathLength", "textType", "senderPrefix", "senderName", "text", "searchText", "senderTimestamp", "timestamp", "dedupeKey",
        "createdAt", "updatedAt", "failureReason",
    ]
    static let insertSQL = makeInsertSQL()
    static let kindDirect = 0
    static let kindChannel = 1

    /// Every message read goes through this join, which names the conversation.
    static let selectSQL = """
        SELECT m.*, c.publicKey AS contactKey, ch.channelIndex AS channelIndex FROM messages m
        LEFT JOIN contacts c ON c.id = m.contactId LEFT JOIN channels ch ON ch.id = m.channelId
        """

    var id: Int64?
    var radioId: Int64
    var kind: Int
    var contactId: Int64?
    var channelId: Int64?
    var direction: MessageDirection
    var status: MessageStatus
    var ackCode: UInt32?
    var attempt: Int = 0
    var roundTripMs: Int?
    var heardRepeats: Int = 0
    var snrX4: Int8?
    var pathLength: UInt8?
    var textType: UInt8
    var senderPrefix: [UInt8]?
    var senderName: String?
    var text: String
    var senderTimestamp: UInt32
    var timestamp: Int64
    var dedupeKey: Int64
    var createdAt: Date
    var updatedAt: Date
    /// Why an outgoing message failed (v6); nil unless its status is `failed`.
    var failureReason: String?
    /// From the join: the conversation this row belongs to.
    var conversation: Conversation?

    init(radioId: Int64, kind: Int, direction: MessageDirection, status: MessageStatus, textType: UInt8, text: String,
         senderTimestamp: UInt32, timestamp: Int64, dedupeKey: Int64, now: Date) {
        self.radioId = radioId
        self.kind = kind
        self.direction = direction
        self.status = status
        self.textType = textType
        self.text = text
        self.senderTimestamp = senderTimestamp
        self.timestamp = timestamp
        self.dedupeKey = dedupeKey
        createdAt = now
        updatedAt = now
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        radioId = try row.decode(forColumn: "radioId")
        kind = try row.decode(forColumn: "kind")
        contactId = try row.decode(forColumn: "contactId")
        channelId = try row.decode(forColumn: "channelId")
        let dir: Int = try row.decode(forColumn: "direction")
        let st: Int = try row.decode(forColumn: "status")
        guard let d = MessageDirection(rawValue: dir), let s = MessageStatus(rawValue: st) else {
            throw CorruptRow(table: Self.databaseTableName, column: "status", reason: "direction \(dir), status \(st)")
        }
        direction = d
        status = s
        ackCode = try row.decode(forColumn: "ackCode")
        attempt = try row.decode(forColumn: "attempt")
        roundTripMs = try row.decode(forColumn: "roundTripMs")
        heardRepeats = try row.decode(forColumn: "heardRepeats")
        snrX4 = try row.decode(forColumn: "snrX4")
        pathLength = try row.decode(forColumn: "pathLength")
        textType = try row.decode(forColumn: "textType")
        senderPrefix = try row.decode(Data?.self, forColumn: "senderPrefix").map { [UInt8]($0) }
        senderName = try row.decode(forColumn: "senderName")
        text = try row.decode(forColumn: "text")
        senderTimestamp = try row.decode(forColumn: "senderTimestamp")
        timestamp = try row.decode(forColumn: "timestamp")
        dedupeKey = try row.decode(forColumn: "dedupeKey")
        createdAt = try row.millis("createdAt")
        updatedAt = try row.millis("updatedAt")
        failureReason = try row.decode(forColumn: "failureReason")
        if let key = try row.decode(Data?.self, forColumn: "contactKey") {
            guard let k = PublicKey([UInt8](key)) else { throw CorruptRow(table: "contacts", column: "publicKey", reason: "\(key.count)-byte key") }
            conversation = .direct(k)
        } else if let index = try row.decode(UInt8?.self, forColumn: "channelIndex") {
            conversation = .channel(index)
        }
    }

    func write(to s: inout some ColumnSink) {
        s.int(radioId)
        s.int(kind)
        s.int(contactId)
        s.int(channelId)
        s.int(direction.rawValue)
        s.int(status.rawValue)
        s.int(ackCode)
        s.int(attempt)
        s.int(roundTripMs)
        s.int(heardRepeats)
        s.int(snrX4)
        s.int(pathLength)
        s.int(textType)
        s.blob(senderPrefix)
        s.text(senderName)
        s.text(text)
        s.text(SearchText.segmented(text))
        s.int(senderTimestamp)
        s.int(timestamp)
        s.int(dedupeKey)
        s.int(createdAt.storeMillis)
        s.int(updatedAt.storeMillis)
        s.text(failureReason)
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id
        encodeValues(to: &c)
    }

    /// Inserts one row through GRDB (single saves); sets `id`.
    mutating func insert(_ db: Database, sql: String) throws {
        try insertRow(db, sql: sql)
        id = db.lastInsertedRowID
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var value: StoredMessage {
        StoredMessage(
            id: id ?? 0, radio: RadioID(rawValue: radioId), conversation: conversation, direction: direction, status: status, text: text,
            textType: TextType(rawValue: textType), ackCode: ackCode.map(AckCode.init), attempt: attempt, roundTripMs: roundTripMs,
            heardRepeats: heardRepeats, snrX4: snrX4, pathLength: pathLength.map(PathLength.init(raw:)),
            senderPrefix: senderPrefix.flatMap(KeyPrefix.init), senderName: senderName, senderTimestamp: senderTimestamp,
            timestamp: Date(storeMillis: timestamp), createdAt: createdAt, updatedAt: updatedAt, failureReason: failureReason)
    }
}
