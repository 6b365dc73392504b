import Foundation
import MeshCodec

/// A contact of one radio, with the app's own state about it.
public struct StoredContact: Hashable, Sendable {
    public var radio: RadioID
    public var contact: Contact
    public var unreadCount: Int
    public var messageCount: Int
    public var isFavourite: Bool
    /// The conversation was deleted by the person; older messages stay hidden.
    public var isArchived: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// When the radio stopped having this contact; its history stays. nil while it has it.
    public var removedAt: Date?

    public var publicKey: PublicKey { contact.publicKey }
    public var name: String { contact.name }
    public var isOnRadio: Bool { removedAt == nil }
}

/// The answer to a lookup by key prefix. An ambiguous prefix is reported, never guessed.
public enum ContactLookup: Hashable, Sendable {
    case notFound
    case found(StoredContact)
    case ambiguous(matches: Int)

    public var contact: StoredContact? {
        if case let .found(c) = self { return c }
        return nil
    }
}
