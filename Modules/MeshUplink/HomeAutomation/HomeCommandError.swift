import MeshServices

/// Why a command from `meshport/{KEY}/send` sent nothing, or its message failed; `code` is the
/// outcome's `error` field, `description` its `reason`.
enum HomeCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload is not a command (bad JSON, a missing or wrong field).
    case badCommand(id: String?, reason: String)
    /// `to` names no contact, or more than one.
    case contact(ContactsError)
    /// The contacts could not be read to find `to`.
    case contactLookup(query: String, reason: String)
    /// The radio or the store could not send it, or no ACK came.
    case messaging(MessagingError)

    var code: String {
        switch self {
        case .badCommand: "bad-command"
        case .contact(.ambiguous): "ambiguous-contact"
        case .contact: "unknown-contact"
        case .contactLookup: "send-failed"
        case .messaging(.noAck): "no-ack"
        case .messaging(.emptyText), .messaging(.textTooLong), .messaging(.channelTextTooLong): "bad-text"
        case .messaging(.emptyChannel): "empty-channel"
        case .messaging: "send-failed"
        }
    }

    /// Refused before a message was saved (`rejected`); otherwise the message was saved and
    /// is now failed (`failed`).
    var savedNothing: Bool {
        switch self {
        case .badCommand, .contact, .contactLookup, .messaging(.emptyText), .messaging(.textTooLong), .messaging(.channelTextTooLong),
             .messaging(.emptyChannel):
            true
        case .messaging:
            false
        }
    }

    var description: String {
        switch self {
        case let .badCommand(_, reason): "the command is not valid: \(reason)"
        case let .contact(error): "\(error)"
        case let .contactLookup(query, reason): "the contacts could not be read to find \"\(query)\": \(reason)"
        case let .messaging(error): "\(error)"
        }
    }
}
