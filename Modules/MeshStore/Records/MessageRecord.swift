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

    init(row: Row) throws { try self.init(row: row, at: Columns(Array(row.columnNames))) }

    init(row: Row, at c: Columns) throws {
        id = try row.decode(atIndex: c.id)
        radioId = try row.decode(atIndex: c.radioId)
        kind = try row.decode(atIndex: c.kind)
        contactId = try row.decode(atIndex: c.contactId)
        channelId = try row.decode(atIndex: c.channelId)
        let dir: Int = try row.decode(atIndex: c.direction)
        let st: Int = try row.decode(atIndex: c.status)
        guard let d = MessageDirection(rawValue: dir), let s = MessageStatus(rawValue: st) else {
            throw CorruptRow(table: Self.databaseTableName, column: "status", reason: "direction \(dir), status \(st)")
        }
        direction = d
        status = s
        ackCode = try row.decode(atIndex: c.ackCode)
        attempt = try row.decode(atIndex: c.attempt)
        roundTripMs = try row.decode(atIndex: c.roundTripMs)
        heardRepeats = try row.decode(atIndex: c.heardRepeats)
        snrX4 = try row.decode(atIndex: c.snrX4)
        pathLength = try row.decode(atIndex: c.pathLength)
        textType = try row.decode(atIndex: c.textType)
        senderPrefix = try row.decode(Data?.self, atIndex: c.senderPrefix).map { [UInt8]($0) }
        senderName = try row.decode(atIndex: c.senderName)
        text = try row.decode(atIndex: c.text)
        senderTimestamp = try row.decode(atIndex: c.senderTimestamp)
        timestamp = try row.decode(atIndex: c.timestamp)
        dedupeKey = try row.decode(atIndex: c.dedupeKey)
        createdAt = Date(storeMillis: try row.decode(Int64.self, atIndex: c.createdAt))
        updatedAt = Date(storeMillis: try row.decode(Int64.self, atIndex: c.updatedAt))
        failureReason = try row.decode(atIndex: c.failureReason)
        if let key = try row.decode(Data?.self, atIndex: c.contactKey) {
            guard let k = PublicKey([UInt8](key)) else { throw CorruptRow(table: "contacts", column: "publicKey", reason: "\(key.count)-byte key") }
            conversation = .direct(k)
        } else if let index = try row.decode(UInt8?.self, atIndex: c.channelIndex) {
            conversation = .channel(index)
        }
    }

    /// Where each column of a `selectSQL` query sits in its rows, found once per statement:
    /// GRDB finds a column by a case-insensitive name lookup on every `decode(forColumn:)`,
    /// which was a fifth of the server's CPU on a timeline page.
    struct Columns {
        let id, radioId, kind, contactId, channelId, direction, status, ackCode, attempt, roundTripMs, heardRepeats, snrX4: Int
        let pathLength, textType, senderPrefix, senderName, text, senderTimestamp, timestamp, dedupeKey, createdAt, updatedAt: Int
        let failureReason, contactKey, channelIndex: Int

        init(_ names: [String]) throws {
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
            func at(_ name: String) throws -> Int {
                guard let index = positions[name] else {
                    throw CorruptRow(table: MessageRecord.databaseTableName, column: name, reason: "the query gives no such column")
                }
                return index
            }
            (id, radioId, kind, contactId, channelId) = (try at("id"), try at("radioId"), try at("kind"), try at("contactId"), try at("channelId"))
            (direction, status, ackCode, attempt) = (try at("direction"), try at("status"), try at("ackCode"), try at("attempt"))
            (roundTripMs, heardRepeats, snrX4, pathLength) = (try at("roundTripMs"), try at("heardRepeats"), try at("snrX4"), try at("pathLength"))
            (textType, senderPrefix, senderName, text) = (try at("textType"), try at("senderPrefix"), try at("senderName"), try at("text"))
            (senderTimestamp, timestamp, dedupeKey) = (try at("senderTimestamp"), try at("timestamp"), try at("dedupeKey"))
            (createdAt, updatedAt, failureReason) = (try at("createdAt"), try at("updatedAt"), try at("failureReason"))
            (contactKey, channelIndex) = (try at("contactKey"), try at("channelIndex"))
        }
    }

    /// The rows of a `selectSQL` query, each column found once for them all (see `Columns`);
    /// the statement comes from the connection's cache (CachedFetch.swift).
    static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments) throws -> [MessageRecord] {
        let statement = try db.cachedStatement(sql: sql)
        let columns = try Columns(statement.columnNames)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var records: [MessageRecord] = []
        while let row = try rows.next() { records.append(try MessageRecord(row: row, at: columns)) }
        return records
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
