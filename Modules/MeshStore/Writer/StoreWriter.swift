import Foundation
import GRDB
import MeshCodec

/// The one writer. Every method is one transaction: values in, the existing rows looked up
/// in one query per batch, then inserts and updates; all of it commits or none of it. Calls
/// are applied in the order they reach the actor.
///
/// Writes run synchronously on the actor: it keeps them strictly ordered, and a commit is
/// short (a WAL append, plus one fsync with `Durability.full`).
public actor StoreWriter {
    let database: StoreDatabase
    private var limits: StoreLimits { database.options.limits }
    private var now: Date { database.now }

    init(database: StoreDatabase) {
        self.database = database
    }

    // MARK: Radios and settings (immediate)

    /// Saves the radio's SELF_INFO (identity and settings); creates the radio on first sight.
    @discardableResult
    public func register(_ info: SelfInfo) throws(StoreError) -> StoredRadio {
        let now = now
        return try database.write("radio \(info.publicKey.prefix(8).hex)") { db in try RadioWrites.register(db, info: info, now: now) }
    }

    public func markConnected(_ radio: RadioID, at time: Date) throws(StoreError) {
        let now = now
        try database.write("last-connected time of radio \(radio)") { db in
            try RadioWrites.update(db, radio: radio, what: "mark it connected", set: "lastConnectedAt = ?, updatedAt = ?",
                                   arguments: [time.storeMillis, now.storeMillis])
        }
    }

    /// Records a completed contact sync: the next GET_CONTACTS asks only for newer changes.
    public func setContactsLastmod(_ radio: RadioID, _ lastmod: UInt32) throws(StoreError) {
        let now = now
        try database.write("contact-sync watermark of radio \(radio)") { db in
            try RadioWrites.update(db, radio: radio, what: "set its contact-sync watermark", set: "contactsLastmod = ?, updatedAt = ?",
                                   arguments: [lastmod, now.storeMillis])
        }
    }

    /// Deletes every row of one radio.
    public func deleteRadio(_ radio: RadioID) throws(StoreError) {
        defer { database.channelSlots.forget(radio) }
        try database.write("removal of radio \(radio)") { db in try RadioWrites.delete(db, radio: radio) }
    }

    // MARK: Contacts and channels (immediate)

    /// Inserts new contacts and updates changed ones (CONTACT, NEW_ADVERT, a sync batch).
    @discardableResult
    public func saveContacts(_ radio: RadioID, _ contacts: [Contact]) throws(StoreError) -> [StoredContact] {
        let (limits, now) = (limits, now)
        return try database.write("\(contacts.count) contact(s) of radio \(radio)") { db in
            try ContactWrites.upsert(db, radio: radio, contacts: contacts, limits: limits, now: now)
        }
    }

    /// A full sync: saves `contacts` and marks every other stored contact of the radio as
    /// no longer on it, in one transaction. Returns the saved contacts and the keys removed.
    @discardableResult
    public func replaceContacts(_ radio: RadioID, _ contacts: [Contact]) throws(StoreError) -> (saved: [StoredContact], removed: [PublicKey]) {
        let (limits, now) = (limits, now)
        return try database.write("full contact list (\(contacts.count)) of radio \(radio)") { db in
            let saved = try ContactWrites.upsert(db, radio: radio, contacts: contacts, limits: limits, now: now)
            let removed = try ContactWrites.keepOnly(db, radio: radio, keys: Set(contacts.map(\.publicKey)), now: now)
            return (saved, removed)
        }
    }

    /// REMOVE_CONTACT or CONTACT_DELETED: the radio no longer has these; history stays.
    @discardableResult
    public func markContactsRemoved(_ radio: RadioID, _ keys: [PublicKey]) throws(StoreError) -> Int {
        let now = now
        return try database.write("removal of \(keys.count) contact(s) of radio \(radio)") { db in
            try ContactWrites.markRemoved(db, radio: radio, keys: keys, now: now)
        }
    }

    @discardableResult
    public func setFavourite(_ radio: RadioID, _ key: PublicKey, _ favourite: Bool) throws(StoreError) -> StoredContact {
        let now = now
        return try database.write("favourite flag of contact \(key.prefix(6).hex)") { db in
            try ContactWrites.setFavourite(db, radio: radio, key: key, favourite: favourite, now: now)
        }
    }

    /// Saves channel slots (CHANNEL_INFO); a slot's messages keep their history when it changes.
    @discardableResult
    public func saveChannels(_ radio: RadioID, _ channels: [ChannelInfo]) throws(StoreError) -> [StoredChannel] {
        let now = now
        defer { database.channelSlots.forget(radio) }
        return try database.write("\(channels.count) channel slot(s) of radio \(radio)") { db in
            try ChannelWrites.upsert(db, radio: radio, channels: channels, now: now)
        }
    }

    // MARK: Messages (immediate)

    /// Saves received messages in one transaction; call before the next SYNC_NEXT_MESSAGE.
    /// Duplicates are reported, not stored twice.
    @discardableResult
    public func saveIncoming(_ radio: RadioID, _ messages: [IncomingMessage]) throws(StoreError) -> [SavedMessage] {
        let (limits, now) = (limits, now)
        return try database.write("\(messages.count) received message(s) of radio \(radio)") { db in
            try MessageWrites.saveIncoming(db, radio: radio, messages: messages, limits: limits, now: now)
        }
    }

    /// Saves a message a person sends, as `pending`, before its frame is sent.
    @discardableResult
    public func saveOutgoing(_ radio: RadioID, _ message: OutgoingMessage) throws(StoreError) -> StoredMessage {
        let (limits, now) = (limits, now)
        return try database.write("outgoing message to \(message.conversation)") { db in
            try MessageWrites.saveOutgoing(db, radio: radio, message: message, limits: limits, now: now)
        }
    }

    /// Moves an outgoing message to `status`, recording its ACK code (SENT), attempt and round
    /// trip; `failureReason` says why it failed (kept with `failed`, cleared by any other status).
    @discardableResult
    public func updateMessage(_ radio: RadioID, id: Int64, status: MessageStatus, ackCode: AckCode? = nil, attempt: Int? = nil,
                              roundTripMs: Int? = nil, failureReason: String? = nil) throws(StoreError) -> StoredMessage {
        let now = now
        return try database.write("status \(status) of message \(id)") { db in
            try MessageWrites.update(db, radio: radio, id: id, status: status, ackCode: ackCode, attempt: attempt,
                                     roundTripMs: roundTripMs, failureReason: failureReason, now: now)
        }
    }

    /// SEND_CONFIRMED: marks the message waiting for `ackCode` delivered; nil if none waits.
    @discardableResult
    public func markDelivered(_ radio: RadioID, ackCode: AckCode, roundTripMs: Int?) throws(StoreError) -> StoredMessage? {
        let now = now
        return try database.write("delivery of ACK \(ackCode)") { db in
            try MessageWrites.deliver(db, radio: radio, ackCode: ackCode, roundTripMs: roundTripMs, now: now)
        }
    }

    /// Another node was heard repeating our message; returns the new count.
    @discardableResult
    public func recordHeardRepeat(_ radio: RadioID, messageId: Int64) throws(StoreError) -> Int {
        let now = now
        return try database.write("heard repeat of message \(messageId)") { db in
            try MessageWrites.heardRepeat(db, radio: radio, id: messageId, now: now)
        }
    }

    public func markRead(_ radio: RadioID, _ conversation: Conversation) throws(StoreError) {
        let now = now
        try database.write("read state of \(conversation)") { db in
            try ConversationWrites.markRead(db, radio: radio, conversation: conversation, now: now)
        }
    }

    /// Deletes a conversation as a person sees it (soft delete; see `ConversationWrites.archive`).
    public func archive(_ radio: RadioID, _ conversation: Conversation) throws(StoreError) {
        let now = now
        try database.write("archiving \(conversation)") { db in
            try ConversationWrites.archive(db, radio: radio, conversation: conversation, now: now)
        }
    }

    // MARK: Remote nodes

    @discardableResult
    public func saveLogin(_ radio: RadioID, node: PublicKey, role: NodeType, permission: UInt8, at time: Date) throws(StoreError) -> SavedLogin {
        let now = now
        return try database.write("login to \(node.prefix(6).hex)") { db in
            try LoginWrites.login(db, radio: radio, node: node, role: role, permission: permission, at: time, now: now)
        }
    }

    /// Marks one session (or, with `node` nil, every session of the radio) connected or not.
    public func setLoginConnected(_ radio: RadioID, node: PublicKey?, _ connected: Bool) throws(StoreError) {
        let now = now
        try database.write("session state of \(node.map { $0.prefix(6).hex } ?? "all nodes")") { db in
            try LoginWrites.setConnected(db, radio: radio, node: node, connected: connected, now: now)
        }
    }

    @discardableResult
    public func saveRoomMessages(_ radio: RadioID, room: PublicKey, _ messages: [ContactMessage], receivedAt: Date) throws(StoreError) -> [SavedMessage] {
        let (limits, now) = (limits, now)
        return try database.write("\(messages.count) room post(s) from \(room.prefix(6).hex)") { db in
            try LoginWrites.saveRoomMessages(db, radio: radio, room: room, messages: messages, receivedAt: receivedAt, limits: limits, now: now)
        }
    }

    // MARK: Samples (coalesced; the coalescer calls this)

    /// Writes positions, telemetry and stats of one radio in one transaction, caps included.
    @discardableResult
    public func saveSamples(_ radio: RadioID, _ batch: SampleBatch) throws(StoreError) -> SampleWriteReport {
        let (limits, now) = (limits, now)
        return try database.write("\(batch.count) sample(s) of radio \(radio)") { db in
            try SampleWrites.apply(db, radio: radio, batch: batch, limits: limits, now: now)
        }
    }

    /// Contacts and their samples in one transaction: the seed harness's unit of work.
    func saveSeedChunk(_ radio: RadioID, contacts: [Contact], samples: SampleBatch) throws(StoreError) -> SampleWriteReport {
        let (limits, now) = (limits, now)
        return try database.write("seed chunk of \(contacts.count) node(s)") { db in
            _ = try ContactWrites.upsert(db, radio: radio, contacts: contacts, limits: limits, now: now)
            return try SampleWrites.apply(db, radio: radio, batch: samples, limits: limits, now: now)
        }
    }
}
