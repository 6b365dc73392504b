import Foundation
import MeshCodec

public enum MessageDirection: Int, Hashable, Sendable {
    case incoming = 0
    case outgoing = 1
}

/// An outgoing message moves pending -> sending -> sent -> delivered or failed; a received
/// one is `received` for good.
public enum MessageStatus: Int, Hashable, Sendable, CustomStringConvertible {
    case pending = 0, sending = 1, sent = 2, delivered = 3, failed = 4, received = 5

    /// The moves the store accepts. Retries go back to sending; a late ACK may still
    /// deliver a message that timed out.
    public func canMove(to next: MessageStatus) -> Bool {
        switch (self, next) {
        case (.pending, .sending), (.pending, .sent), (.pending, .failed),
             (.sending, .sent), (.sending, .failed), (.sending, .delivered),
             (.sent, .delivered), (.sent, .failed), (.sent, .sending),
             (.failed, .sending), (.failed, .delivered):
            true
        default:
            false
        }
    }

    public var description: String {
        switch self {
        case .pending: "pending"
        case .sending: "sending"
        case .sent: "sent"
        case .delivered: "delivered"
        case .failed: "failed"
        case .received: "received"
        }
    }
}

/// A message the radio handed over (CONTACT_MSG_RECV / CHANNEL_MSG_RECV), with the time it
/// reached us. Saved before the next SYNC_NEXT_MESSAGE is sent.
public enum IncomingMessage: Hashable, Sendable {
    case direct(ContactMessage, receivedAt: Date)
    case channel(ChannelMessage, receivedAt: Date)

    public var receivedAt: Date {
        switch self {
        case let .direct(_, at), let .channel(_, at): at
        }
    }
}

/// A message a person sends; saved as `pending` before its frame goes to the radio.
public struct OutgoingMessage: Hashable, Sendable {
    public var conversation: Conversation
    public var text: String
    public var textType: TextType
    /// The timestamp put in the SEND_TXT_MSG / SEND_CHANNEL_TXT_MSG frame.
    public var senderTimestamp: UInt32

    public init(conversation: Conversation, text: String, textType: TextType = .plain, senderTimestamp: UInt32) {
        self.conversation = conversation
        self.text = text
        self.textType = textType
        self.senderTimestamp = senderTimestamp
    }
}

/// How a saved message's sender matched the radio's contacts.
public enum SenderMatch: Hashable, Sendable {
    /// A channel message or an outgoing one: no key to match.
    case notApplicable
    case resolved(PublicKey)
    /// No contact has this prefix yet; the message is kept and attached when one arrives.
    case unknown
    /// Several contacts share the prefix; the message is kept unattached rather than guessed.
    case ambiguous(matches: Int)
}

/// What saving one incoming message did.
public struct SavedMessage: Hashable, Sendable {
    public var id: Int64
    /// It was already stored (same de-duplication key); nothing changed.
    public var isDuplicate: Bool
    /// nil when the sender could not be attached to one contact.
    public var conversation: Conversation?
    public var sender: SenderMatch
}

/// A stored message, direct or channel, in either direction.
public struct StoredMessage: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var radio: RadioID
    /// nil for a DM whose sender prefix is not (yet) attached to one contact.
    public var conversation: Conversation?
    public var direction: MessageDirection
    public var status: MessageStatus
    public var text: String
    public var textType: TextType
    public var ackCode: AckCode?
    public var attempt: Int
    public var roundTripMs: Int?
    /// Times another node was heard repeating this (outgoing channel) message.
    public var heardRepeats: Int
    public var snrX4: Int8?
    public var pathLength: PathLength?
    public var senderPrefix: KeyPrefix?
    /// A channel sender's claimed name (unauthenticated), or the contact's name for DMs.
    public var senderName: String?
    /// The sender's own clock, as in the frame.
    public var senderTimestamp: UInt32
    /// Our clock: when it was received or created. Timelines are ordered by it.
    public var timestamp: Date
    public var createdAt: Date
    public var updatedAt: Date
    /// Why an outgoing message failed, as the sender reported it; nil unless `failed`.
    public var failureReason: String?

    public var cursor: TimelineCursor { TimelineCursor(timestamp: timestamp.storeMillis, id: id) }
}

/// A position in a timeline: pages continue strictly before it.
public struct TimelineCursor: Hashable, Sendable, Codable {
    public var timestamp: Int64
    public var id: Int64

    public init(timestamp: Int64, id: Int64) {
        self.timestamp = timestamp
        self.id = id
    }
}

/// One page of a timeline, newest first, and the cursor for the next (older) page.
public struct TimelinePage: Hashable, Sendable {
    public var messages: [StoredMessage]
    /// nil when this page reached the oldest message.
    public var older: TimelineCursor?
}

/// Unread messages per conversation (archived conversations count none).
public struct UnreadCounts: Hashable, Sendable {
    public var byConversation: [Conversation: Int]
    public var total: Int { byConversation.values.reduce(0, +) }

    public init(byConversation: [Conversation: Int]) { self.byConversation = byConversation }
}
