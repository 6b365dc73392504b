import MeshCodec
import MeshStore

/// Where a message belongs: a contact (`key`) or a channel slot (`channel`).
public struct ConversationRefJSON: Codable, Hashable, Sendable {
    public var kind: String
    public var key: String?
    public var channel: Int?

    public init(_ c: Conversation) {
        switch c {
        case let .direct(key): (kind, self.key) = ("direct", key.hex)
        case let .channel(index): (kind, channel) = ("channel", Int(index))
        }
    }
}

/// A stored message, incoming or outgoing, with where its delivery stands.
public struct MessageJSON: Codable, Hashable, Sendable {
    public var id: Int64
    public var conversation: ConversationRefJSON?
    public var direction: String
    public var status: String
    public var text: String
    public var timestamp: String
    public var senderTimestamp: UInt32
    public var sender: String?
    public var senderPrefix: String?
    public var attempt: Int
    public var roundTripMs: Int?
    public var heardRepeats: Int
    public var snr: Double?
    public var hops: Int?
    public var failureReason: String?

    public init(_ m: StoredMessage) {
        id = m.id
        conversation = m.conversation.map(ConversationRefJSON.init)
        direction = m.direction == .incoming ? "in" : "out"
        status = m.status.description
        text = m.text
        timestamp = JSONTime.iso(m.timestamp)
        senderTimestamp = m.senderTimestamp
        sender = m.senderName
        senderPrefix = m.senderPrefix?.hex
        attempt = m.attempt
        roundTripMs = m.roundTripMs
        heardRepeats = m.heardRepeats
        snr = m.snrX4.map { Double($0) / 4 }
        hops = m.pathLength.flatMap { $0.isNone ? nil : $0.hopCount }
        failureReason = m.failureReason
    }
}
