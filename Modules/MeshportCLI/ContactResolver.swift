import MeshCodec
import MeshStore

/// Finds the contact a person means: an exact name (any case), a key prefix in hex, or the
/// start of one name. Several matches are an error that lists them, never a guess.
enum ContactResolver {
    static func resolve(_ text: String, in store: MeshStore, radio: RadioID) throws -> StoredContact {
        // A radio holds at most a few hundred contacts (MAX_CONTACTS): the list is small.
        let all = try store.reader.contacts(radio)
        let wanted = text.lowercased()
        let exact = all.filter { $0.name.lowercased() == wanted }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 { throw ambiguous(text, exact) }
        if wanted.count >= 2, wanted.count % 2 == 0, let bytes = Hex.decode(wanted), let prefix = KeyPrefix(bytes) {
            switch try store.reader.lookupContact(radio, prefix: prefix) {
            case let .found(contact): return contact
            case .ambiguous: throw ambiguous(text, all.filter { $0.publicKey.hex.hasPrefix(wanted) })
            case .notFound: break
            }
        }
        let starting = all.filter { $0.name.lowercased().hasPrefix(wanted) }
        if starting.count == 1 { return starting[0] }
        if starting.count > 1 { throw ambiguous(text, starting) }
        throw CLIError("no contact is named \"\(text)\" or has a key starting with it; `meshport contacts list` shows them")
    }

    private static func ambiguous(_ text: String, _ matches: [StoredContact]) -> CLIError {
        let list = matches.prefix(6).map { "\($0.name) (\($0.publicKey.prefix(4).hex))" }.joined(separator: ", ")
        return CLIError("\"\(text)\" matches \(matches.count) contacts: \(list)\(matches.count > 6 ? ", ..." : ""); give more of the name or key")
    }
}
