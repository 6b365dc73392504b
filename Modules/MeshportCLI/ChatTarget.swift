import MeshCodec
import MeshStore

/// Who `chat` sends to: a contact or a channel slot.
enum ChatTarget: Equatable {
    case contact(StoredContact)
    case channel(index: UInt8, name: String)

    var conversation: Conversation {
        switch self {
        case let .contact(c): .direct(c.publicKey)
        case let .channel(index, _): .channel(index)
        }
    }

    var label: String {
        switch self {
        case let .contact(c): "@\(c.name)"
        case let .channel(index, name): "#\(index) \(name)"
        }
    }
}
