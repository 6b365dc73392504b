import MeshCodec

/// Why a contact operation failed, naming the contact as the person gave it.
public enum ContactsError: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(String)
    case ambiguous(String, matches: [String])
    /// The radio took the command but reads back something else.
    case notApplied(String, what: String)
    case invalidName(String, reason: String)
    /// Bytes that are not a signed advert (`contacts export` prints one).
    case invalidCard(reason: String)
    /// The radio acknowledged a card but added no contact from it.
    case importIgnored(ContactURI)

    public var description: String {
        switch self {
        case let .notFound(query): "no contact named or keyed \"\(query)\"; `meshport contacts list` shows them"
        case let .ambiguous(query, matches): "\"\(query)\" matches \(matches.count) contacts (\(matches.prefix(5).joined(separator: ", "))); give more of the name or key"
        case let .notApplied(contact, what): "the radio did not apply \(what) to \(contact)"
        case let .invalidName(name, reason): "contact name \"\(name)\": \(reason)"
        case let .invalidCard(reason): "not a contact card (a signed advert): \(reason)"
        case let .importIgnored(card):
            "the radio acknowledged the card of \(card.name) (\(card.publicKey.prefix(6).hex)) but added no contact: it ignores a card "
                + "older than an advert it has heard, and with manual_add_contacts on it adds none by itself; "
                + "add it with `meshport contacts add \(card.publicKey.hex) --name '\(card.name)' --type \(card.type)`"
        }
    }
}
