import Foundation
import GRDB
import MeshCodec

/// Messages: received ones are saved in batches (one transaction), outgoing ones one by one
/// as `pending`, then moved through their statuses.
enum MessageWrites {
    /// Per-batch caches: the fetch step resolves each channel slot and sender prefix once.
    private struct Resolver {
        var channels: [UInt8: Int64] = [:]
        var senders: [[UInt8]: Sender] = [:]
    }

    /// A message of the batch, staged for the one insert, and what its result reports.
    private struct Staged {
        var key: MessageStaging.Key
        var conversation: Conversation?
        var sender: SenderMatch
        var thread: ThreadKey?
    }

    /// A sender prefix resolved against the contacts; `id` nil when unknown or ambiguous.
    private struct Sender {
        var id: Int64?
        var name: String?
        var match: SenderMatch
    }

    /// The stored copy of a message whose insert was skipped (the v4 de-duplication index).
    static let duplicateSQL = "SELECT id FROM messages WHERE radioId = ? AND senderTimestamp = ? AND dedupeKey = ?"

    static func saveIncoming(_ db: Database, radio: RadioID, messages: [IncomingMessage], limits: StoreLimits, now: Date) throws -> [SavedMessage] {
        let radioId = radio.rawValue
        var resolver = Resolver()
        for row in try Row.fetchAll(cached: db, sql: "SELECT id, channelIndex FROM channels WHERE radioId = ?", arguments: [radioId]) {
            resolver.channels[try row.decode(forColumn: "channelIndex")] = try row.decode(forColumn: "id")
        }
        try MessageStaging.prepare(db)
        let stage = try BulkInsert(db, MessageRecord.self, into: MessageStaging.table)
        var staged: [Staged] = []
        staged.reserveCapacity(messages.count)
        for message in messages {
            var record: MessageRecord
            var conversation: Conversation?
            var sender = SenderMatch.notApplicable
            var thread: ThreadKey?
            switch message {
            case let .direct(m, at):
                record = MessageRecord(radioId: radioId, kind: MessageRecord.kindDirect, direction: .incoming, status: .received,
                                       textType: m.textType.rawValue, text: m.text, senderTimestamp: m.senderTimestamp,
                                       timestamp: at.storeMillis, dedupeKey: DedupeKey.direct(m), now: now)
                record.senderPrefix = m.senderPrefix.bytes
                fill(&record, snrX4: m.snrX4, format: m.format, pathLength: m.pathLength)
                let resolved = try resolveSender(db, radioId: radioId, prefix: m.senderPrefix.bytes, resolver: &resolver)
                sender = resolved.match
                if let id = resolved.id, case let .resolved(key) = resolved.match {
                    record.contactId = id
                    record.senderName = resolved.name
                    conversation = .direct(key)
                    thread = ThreadKey(thread: .direct, ownerId: id)
                }
            case let .channel(m, at):
                let (name, body) = m.senderAndBody
                record = MessageRecord(radioId: radioId, kind: MessageRecord.kindChannel, direction: .incoming, status: .received,
                                       textType: m.textType.rawValue, text: body, senderTimestamp: m.senderTimestamp,
                                       timestamp: at.storeMillis, dedupeKey: DedupeKey.channel(m), now: now)
                record.senderName = name
                fill(&record, snrX4: m.snrX4, format: m.format, pathLength: m.pathLength)
                let channelId = try channel(db, radio: radio, index: m.channelIndex, resolver: &resolver, now: now)
                record.channelId = channelId
                conversation = .channel(m.channelIndex)
                thread = ThreadKey(thread: .channel, ownerId: channelId)
            }
            try stage.insert(record)
            staged.append(Staged(key: MessageStaging.Key(senderTimestamp: Int64(record.senderTimestamp), dedupeKey: record.dedupeKey),
                                 conversation: conversation, sender: sender, thread: thread))
        }
        // A copy already stored (same de-duplication key) is skipped, not an error; so is a
        // second copy within the batch, which the first one's insert claims.
        var inserted = try MessageStaging.insertStaged(db)
        var claimed: [MessageStaging.Key: Int64] = [:]
        var added: [ThreadKey: (count: Int, unread: Int)] = [:]
        var out: [SavedMessage] = []
        out.reserveCapacity(staged.count)
        for s in staged {
            if let id = inserted.removeValue(forKey: s.key) {
                claimed[s.key] = id
                out.append(SavedMessage(id: id, isDuplicate: false, conversation: s.conversation, sender: s.sender))
                if let thread = s.thread {
                    let n = added[thread] ?? (0, 0)
                    added[thread] = (n.count + 1, n.unread + 1)
                }
            } else {
                let existing = try claimed[s.key]
                    ?? Int64.fetchOne(cached: db, sql: duplicateSQL, arguments: [radioId, s.key.senderTimestamp, s.key.dedupeKey])
                guard let existing else { throw StoreError.write(what: "message", reason: "insert skipped but no duplicate found") }
                out.append(SavedMessage(id: existing, isDuplicate: true, conversation: s.conversation, sender: s.sender))
            }
        }
        for (thread, n) in added {
            try Caps.addToThread(db, thread: thread.thread, ownerId: thread.ownerId, radioId: radioId, added: n.count, unread: n.unread,
                                 cap: limits.messagesPerConversation, now: now.storeMillis)
        }
        return out
    }

    static func saveOutgoing(_ db: Database, radio: RadioID, message: OutgoingMessage, limits: StoreLimits, now: Date) throws -> StoredMessage {
        let radioId = radio.rawValue
        var record = MessageRecord(radioId: radioId, kind: MessageRecord.kindDirect, direction: .outgoing, status: .pending,
                                   textType: message.textType.rawValue, text: message.text, senderTimestamp: message.senderTimestamp,
                                   timestamp: now.storeMillis, dedupeKey: DedupeKey.outgoing(), now: now)
        let thread: ThreadKey
        switch message.conversation {
        case let .direct(key):
            guard let id = try ContactIndex.ids(db, radioId: radioId, keys: [key])[key] else {
                throw StoreError.notFound(what: "contact \(key.prefix(6).hex) of radio \(radio) (to send a message to)")
            }
            record.contactId = id
            thread = ThreadKey(thread: .direct, ownerId: id)
        case let .channel(index):
            var resolver = Resolver()
            let id = try channel(db, radio: radio, index: index, resolver: &resolver, now: now)
            record.kind = MessageRecord.kindChannel
            record.channelId = id
            thread = ThreadKey(thread: .channel, ownerId: id)
        }
        try record.insert(db, sql: MessageRecord.insertSQL)
        try Caps.addToThread(db, thread: thread.thread, ownerId: thread.ownerId, radioId: radioId, added: 1, unread: 0,
                             cap: limits.messagesPerConversation, now: now.storeMillis)
        record.conversation = message.conversation
        return record.value
    }

    /// Moves an outgoing message on; ackCode/attempt/roundTrip are set when given. A failure
    /// keeps its reason; any other status clears an earlier one (a late ACK delivers it).
    static func update(_ db: Database, radio: RadioID, id: Int64, status: MessageStatus, ackCode: AckCode?, attempt: Int?,
                       roundTripMs: Int?, failureReason: String?, now: Date) throws -> StoredMessage {
        guard var record = try fetch(db, radioId: radio.rawValue, id: id) else {
            throw StoreError.notFound(what: "message \(id) of radio \(radio)")
        }
        try move(&record, to: status)
        record.failureReason = status == .failed ? failureReason ?? record.failureReason : nil
        if let ackCode {
            // ACK codes are 32-bit hashes; an old message holding the same one gives it up.
            try db.execute(cached: "UPDATE messages SET ackCode = NULL WHERE radioId = ? AND ackCode = ? AND id <> ?",
                           arguments: [radio.rawValue, ackCode.value, id])
            record.ackCode = ackCode.value
        }
        if let attempt { record.attempt = attempt }
        if let roundTripMs { record.roundTripMs = roundTripMs }
        record.updatedAt = now
        try record.update(db)
        return record.value
    }

    /// SEND_CONFIRMED: finds the message by its ACK code. A repeated ACK (multi-acks) leaves
    /// it as it is; an ACK nobody waits for answers nil.
    static func deliver(_ db: Database, radio: RadioID, ackCode: AckCode, roundTripMs: Int?, now: Date) throws -> StoredMessage? {
        guard var record = try MessageRecord.fetchOne(cached: db, sql: MessageRecord.selectSQL + " WHERE m.radioId = ? AND m.ackCode = ?",
                                                      arguments: [radio.rawValue, ackCode.value]) else { return nil }
        if record.status == .delivered { return record.value }
        try move(&record, to: .delivered)
        record.failureReason = nil
        record.roundTripMs = roundTripMs
        record.updatedAt = now
        try record.update(db)
        return record.value
    }

    static func heardRepeat(_ db: Database, radio: RadioID, id: Int64, now: Date) throws -> Int {
        guard let n = try Int.fetchOne(cached: db, sql: """
            UPDATE messages SET heardRepeats = heardRepeats + 1, updatedAt = ? WHERE radioId = ? AND id = ? AND direction = 1 RETURNING heardRepeats
            """, arguments: [now.storeMillis, radio.rawValue, id]) else {
            throw StoreError.notFound(what: "outgoing message \(id) of radio \(radio)")
        }
        return n
    }

    static func fetch(_ db: Database, radioId: Int64, id: Int64) throws -> MessageRecord? {
        try MessageRecord.fetchOne(cached: db, sql: MessageRecord.selectSQL + " WHERE m.radioId = ? AND m.id = ?", arguments: [radioId, id])
    }

    private static func move(_ record: inout MessageRecord, to status: MessageStatus) throws {
        guard record.status == status || record.status.canMove(to: status) else {
            throw StoreError.invalidArgument(what: "status change of message \(record.id ?? 0)", reason: "\(record.status) -> \(status) is not allowed")
        }
        record.status = status
    }

    private static func fill(_ record: inout MessageRecord, snrX4: Int8, format: MessageFormat, pathLength: PathLength) {
        record.snrX4 = format == .v3 ? snrX4 : nil  // legacy frames carry no SNR
        record.pathLength = pathLength.raw
    }

    /// The channel slot's row, created empty when a message arrives before the slot was synced.
    private static func channel(_ db: Database, radio: RadioID, index: UInt8, resolver: inout Resolver, now: Date) throws -> Int64 {
        if let id = resolver.channels[index] { return id }
        if let id = try Int64.fetchOne(cached: db, sql: "SELECT id FROM channels WHERE radioId = ? AND channelIndex = ?", arguments: [radio.rawValue, index]) {
            resolver.channels[index] = id
            return id
        }
        var record = ChannelRecord(radio: radio, info: ChannelInfo(index: index, name: "", secret: .empty), now: now)
        try record.insert(db)
        guard let id = record.id else { throw StoreError.write(what: "channel slot \(index)", reason: "no row id after insert") }
        resolver.channels[index] = id
        return id
    }

    private static func resolveSender(_ db: Database, radioId: Int64, prefix: [UInt8], resolver: inout Resolver) throws -> Sender {
        if let cached = resolver.senders[prefix] { return cached }
        let rows = try ContactIndex.matchingRows(db, radioId: radioId, prefix: prefix, columns: "id, name, publicKey", limit: 2)
        let sender: Sender
        switch rows.count {
        case 0:
            sender = Sender(match: .unknown)
        case 1:
            sender = Sender(id: try rows[0].decode(forColumn: "id"), name: try rows[0].decode(forColumn: "name"),
                            match: .resolved(try rows[0].publicKey("publicKey", table: "contacts")))
        default:
            sender = Sender(match: .ambiguous(matches: try ContactIndex.count(db, radioId: radioId, prefix: prefix)))
        }
        resolver.senders[prefix] = sender
        return sender
    }
}

/// A message thread touched by a batch, for the per-batch counter update.
struct ThreadKey: Hashable {
    let thread: ThreadTable
    let ownerId: Int64
}
