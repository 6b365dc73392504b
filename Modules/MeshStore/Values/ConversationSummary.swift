import Foundation
import MeshCodec

/// One line of the list of conversations: who or which channel, how many unread, and the
/// newest message shown.
public struct ConversationSummary: Hashable, Sendable {
    public var conversation: Conversation
    /// The contact's or the channel slot's name.
    public var name: String
    public var unreadCount: Int
    public var messageCount: Int
    /// When its newest message was received or sent.
    public var lastMessageAt: Date
    /// The newest message still shown (nil when every message is hidden by an archive).
    public var lastMessage: StoredMessage?
}

/// Which contacts a list shows: names or key prefixes containing `text` (any case), of one
/// type. Empty filters match every contact the radio has.
public struct ContactFilter: Hashable, Sendable {
    public var text: String?
    public var type: NodeType?

    public init(text: String? = nil, type: NodeType? = nil) {
        self.text = text
        self.type = type
    }
}
