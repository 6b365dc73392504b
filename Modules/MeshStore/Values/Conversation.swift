import MeshCodec

/// A thread of messages: with one contact, or on one channel slot.
public enum Conversation: Hashable, Sendable, CustomStringConvertible {
    case direct(PublicKey)
    case channel(UInt8)

    public var description: String {
        switch self {
        case let .direct(key): "dm:\(key.prefix(6).hex)"
        case let .channel(index): "channel:\(index)"
        }
    }
}
