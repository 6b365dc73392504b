import MeshCodec

/// Why a contact operation failed, naming the contact as the person gave it.
public enum ContactsError: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, matches: [String])
    /// The radio took the command but reads back something else.
    case notApplied(String, what: String)
    case invalidName(String, reason: String)

    public var description: String {
        switch self {
        case let .notFound(query): "no contact named or keyed \"\(query)\"; `meshport contacts list` shows them"
        case let .ambiguous(query, matches): "\"\(query)\" matches \(matches.count) contacts (\(matches.prefix(5).joined(separator: ", "))); give more of the name or key"
        case let .notApplied(contact, what): "the radio did not apply \(what) to \(contact)"
        case let .invalidName(name, reason): "contact name \"\(name)\": \(reason)"
        }
    }
}
