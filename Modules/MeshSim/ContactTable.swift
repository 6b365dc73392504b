import MeshCodec

/// The radio's contact table: in insertion order (the order the firmware streams them),
/// with a fixed capacity.
public struct ContactTable: Hashable, Sendable {
    public private(set) var contacts: [Contact] = []
    public let capacity: Int

    public init(capacity: Int) { self.capacity = capacity }

    public var count: Int { contacts.count }
    public var isFull: Bool { contacts.count >= capacity }

    public func contact(_ key: PublicKey) -> Contact? { contacts.first { $0.publicKey == key } }

    /// The first contact whose key starts with `prefix`, as the firmware's prefix lookup.
    public func contact(prefix: KeyPrefix) -> Contact? { contacts.first { prefix.matches($0.publicKey) } }

    /// Replaces the contact with the same key, or adds it; false when that needs a free
    /// slot and the table is full.
    @discardableResult
    public mutating func upsert(_ contact: Contact) -> Bool {
        if let i = contacts.firstIndex(where: { $0.publicKey == contact.publicKey }) {
            contacts[i] = contact
            return true
        }
        guard !isFull else { return false }
        contacts.append(contact)
        return true
    }

    @discardableResult
    public mutating func remove(_ key: PublicKey) -> Bool {
        guard let i = contacts.firstIndex(where: { $0.publicKey == key }) else { return false }
        contacts.remove(at: i)
        return true
    }

    mutating func update(_ key: PublicKey, _ change: (inout Contact) -> Void) -> Bool {
        guard let i = contacts.firstIndex(where: { $0.publicKey == key }) else { return false }
        change(&contacts[i])
        return true
    }

    /// "Overwrite oldest": the non-favourite contact with the oldest lastmod.
    func oldestEvictable() -> PublicKey? {
        contacts.filter { !$0.flags.contains(.favourite) }.min { $0.lastModified < $1.lastModified }?.publicKey
    }
}
