import Foundation
import GRDB
import MeshCodec

/// Reads, from any thread or task, concurrently with each other and with the writer (WAL).
/// They are synchronous: each is an indexed query that takes microseconds, less than a hop
/// to another thread would cost. Every query filters by radio, sorts and limits in SQL.
public struct StoreReader: Sendable {
    let database: StoreDatabase

    // MARK: Radios

    public func radios() throws(StoreError) -> [StoredRadio] {
        try database.readOne("radios") { db in try RadioRecord.fetchAll(cached: db, sql: "SELECT * FROM radios ORDER BY name, id").map(\.value) }
    }

    public func radio(_ id: RadioID) throws(StoreError) -> StoredRadio? {
        try database.readOne("radio \(id)") { db in try RadioRecord.fetchOne(cached: db, sql: "SELECT * FROM radios WHERE id = ?", arguments: [id.rawValue])?.value }
    }

    // MARK: Contacts

    public func contact(_ radio: RadioID, key: PublicKey) throws(StoreError) -> StoredContact? {
        try database.readOne("contact \(key.prefix(6).hex) of radio \(radio)") { db in
            try ContactRecord.fetchOne(cached: db, sql: "SELECT * FROM contacts WHERE radioId = ? AND publicKey = ?",
                                       arguments: [radio.rawValue, Data(key.bytes)])?.value
        }
    }

    /// Finds the one contact whose key starts with `prefix` (1 to 32 bytes: incoming DMs
    /// carry 6). Several matches are reported as ambiguous, never guessed between.
    public func lookupContact(_ radio: RadioID, prefix: KeyPrefix) throws(StoreError) -> ContactLookup {
        try database.readOne("contact with key prefix \(prefix.hex) of radio \(radio)") { db in
            let found = try ContactIndex.matching(db, radioId: radio.rawValue, prefix: prefix.bytes, limit: 2)
            switch found.count {
            case 0: return .notFound
            case 1: return .found(found[0].value)
            default: return .ambiguous(matches: try ContactIndex.count(db, radioId: radio.rawValue, prefix: prefix.bytes))
            }
        }
    }

    /// The contact list (the radio's contacts): favourites first, then by name.
    public func contacts(_ radio: RadioID, limit: Int = .max, offset: Int = 0) throws(StoreError) -> [StoredContact] {
        try database.readOne("contacts of radio \(radio)") { db in try ContactQueries.list(db, radio: radio, limit: limit, offset: offset) }
    }

    public func contactCount(_ radio: RadioID) throws(StoreError) -> Int {
        try database.readOne("contact count of radio \(radio)") { db in
            try Int.fetchOne(cached: db, sql: "SELECT count(*) FROM contacts WHERE radioId = ? AND removedAt IS NULL", arguments: [radio.rawValue]) ?? 0
        }
    }

    // MARK: Channels

    public func channels(_ radio: RadioID) throws(StoreError) -> [StoredChannel] {
        try database.readOne("channels of radio \(radio)") { db in
            try ChannelRecord.fetchAll(cached: db, sql: "SELECT * FROM channels WHERE radioId = ? ORDER BY channelIndex", arguments: [radio.rawValue]).map(\.value)
        }
    }

    /// The slots' index, name and secret only, from a cache the writer keeps current
    /// (ChannelSlotCache.swift): the packet log reads them for every heard packet.
    public func channelSlots(_ radio: RadioID) throws(StoreError) -> [ChannelInfo] {
        try database.channelSlots.slots(radio) { () throws(StoreError) in try channels(radio).map(\.info) }
    }

    // MARK: Messages

    /// A page of a conversation, newest first, strictly before `before` (the previous page's
    /// `older` cursor). Archived (deleted) messages are not shown.
    public func timeline(_ radio: RadioID, _ conversation: Conversation, before: TimelineCursor? = nil, limit: Int = 50) throws(StoreError) -> TimelinePage {
        try database.read("timeline of \(conversation) of radio \(radio)") { db in
            try TimelineQueries.page(db, radio: radio, conversation: conversation, before: before, limit: limit)
        }
    }

    public func message(_ radio: RadioID, id: Int64) throws(StoreError) -> StoredMessage? {
        try database.readOne("message \(id) of radio \(radio)") { db in try MessageWrites.fetch(db, radioId: radio.rawValue, id: id)?.value }
    }

    /// The outgoing message waiting for (or acknowledged by) `ackCode`.
    public func message(_ radio: RadioID, ackCode: AckCode) throws(StoreError) -> StoredMessage? {
        try database.readOne("message with ACK \(ackCode) of radio \(radio)") { db in
            try MessageRecord.fetchOne(cached: db, sql: MessageRecord.selectSQL + " WHERE m.radioId = ? AND m.ackCode = ?",
                                       arguments: [radio.rawValue, ackCode.value])?.value
        }
    }

    /// Received DMs whose sender prefix is not attached to one contact yet.
    public func unresolvedMessages(_ radio: RadioID, limit: Int = 100) throws(StoreError) -> [StoredMessage] {
        try database.readOne("unresolved messages of radio \(radio)") { db in
            try MessageRecord.fetchAll(cached: db, sql: MessageRecord.selectSQL + """
                 WHERE m.radioId = ? AND m.kind = 0 AND m.contactId IS NULL ORDER BY m.timestamp DESC, m.id DESC LIMIT ?
                """, arguments: [radio.rawValue, limit]).map(\.value)
        }
    }

    public func unreadCounts(_ radio: RadioID) throws(StoreError) -> UnreadCounts {
        try database.read("unread counts of radio \(radio)") { db in try ConversationQueries.unread(db, radio: radio) }
    }

    /// Full-text search over the radio's visible messages, best match first.
    public func search(_ radio: RadioID, _ query: SearchQuery, limit: Int = 20) throws(StoreError) -> [SearchHit] {
        try database.readOne("search \"\(query.text)\" in radio \(radio)") { db in
            try MessageSearch.run(db, radio: radio, query: query, limit: limit)
        }
    }

    // MARK: Samples

    public func positions(_ radio: RadioID, node: PublicKey, limit: Int = 100) throws(StoreError) -> [PositionSample] {
        try database.readOne("positions of \(node.prefix(6).hex)") { db in
            try SampleQueries.positions(db, radio: radio, node: node, limit: limit)
        }
    }

    public func telemetry(_ radio: RadioID, node: PublicKey, type: LPPType? = nil, limit: Int = 100) throws(StoreError) -> [TelemetrySample] {
        try database.readOne("telemetry of \(node.prefix(6).hex)") { db in
            try SampleQueries.telemetry(db, radio: radio, node: node, type: type, limit: limit)
        }
    }

    /// Stats of a remote node, or with `node` nil of the radio itself.
    public func stats(_ radio: RadioID, node: PublicKey?, limit: Int = 100) throws(StoreError) -> [StatsSample] {
        try database.readOne("stats of \(node.map { $0.prefix(6).hex } ?? "the radio")") { db in
            try SampleQueries.stats(db, radio: radio, node: node, limit: limit)
        }
    }

    /// A page of the packet log, newest first, strictly before `before` (the previous page's `older` cursor).
    public func packets(_ radio: RadioID, _ filter: PacketFilter = PacketFilter(), before: TimelineCursor? = nil, limit: Int = 100) throws(StoreError) -> PacketPage {
        try database.readOne("heard packets of radio \(radio)") { db in
            try PacketQueries.page(db, radio: radio, filter: filter, before: before, limit: limit)
        }
    }

    /// Row counts per table for one radio (the seed harness and `db check` report them).
    public func rowCounts(_ radio: RadioID) throws(StoreError) -> [String: Int] {
        try database.read("row counts of radio \(radio)") { db in
            var out: [String: Int] = [:]
            for table in ["contacts", "channels", "messages", "positions", "telemetry_samples", "stats_samples", "remote_sessions", "room_messages", "heard_packets"] {
                out[table] = try Int.fetchOne(cached: db, sql: "SELECT count(*) FROM \(table) WHERE radioId = ?", arguments: [radio.rawValue]) ?? 0
            }
            return out
        }
    }

    // MARK: Remote nodes

    public func savedLogins(_ radio: RadioID) throws(StoreError) -> [SavedLogin] {
        try database.readOne("remote sessions of radio \(radio)") { db in try LoginQueries.sessions(db, radio: radio) }
    }

    /// Room posts, newest first, strictly before `before`.
    public func roomMessages(_ radio: RadioID, room: PublicKey, before: TimelineCursor? = nil, limit: Int = 50) throws(StoreError) -> [RoomMessage] {
        try database.read("posts of room \(room.prefix(6).hex)") { db in
            try LoginQueries.roomMessages(db, radio: radio, room: room, before: before, limit: limit)
        }
    }
}
