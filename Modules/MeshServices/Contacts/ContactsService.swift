import Foundation
import MeshCodec
import MeshStore

/// The radio's contacts (Docs/protocol.md §7.2): sync, add/update/remove, paths, favourites,
/// sharing and `meshcore://` links. The radio's table is the truth; the store follows it.
public actor ContactsService {
    public let context: ServiceContext
    private var session: RadioSession { context.session }
    private var keeper: ContactKeeper {
        ContactKeeper(store: context.store, radio: context.radio, events: context.events, now: { Date() })
    }

    public init(context: ServiceContext) { self.context = context }

    /// The contacts the radio has, as stored: favourites first, then by name.
    public func list() throws -> [StoredContact] { try context.store.reader.contacts(context.radio) }

    /// One contact by name (exact, then unique start, ignoring case) or by key prefix in hex.
    public func resolve(_ query: String) throws -> StoredContact {
        let all = try list()
        let lower = query.lowercased()
        let exact = all.filter { $0.name.lowercased() == lower }
        if exact.count == 1 { return exact[0] }
        let byKey = lower.count >= 2 && lower.allSatisfy(\.isHexDigit) ? all.filter { $0.publicKey.hex.hasPrefix(lower) } : []
        let byName = all.filter { $0.name.lowercased().hasPrefix(lower) }
        let matches = exact.isEmpty ? (byKey.isEmpty ? byName : byKey) : exact
        switch matches.count {
        case 0: throw ContactsError.notFound(query)
        case 1: return matches[0]
        default: throw ContactsError.ambiguous(query, matches: matches.map(\.name))
        }
    }

    /// GET_CONTACTS since the stored watermark (or all of them): changes kept, the watermark moved.
    @discardableResult
    public func sync(full: Bool = false) async throws -> [Contact] {
        let since = full ? nil : try context.store.reader.radio(context.radio)?.contactsLastmod
        let (contacts, watermark, announced) = try await session.syncContacts(since: since)
        try await keeper.keepSync(contacts, since: since, watermark: watermark, announced: announced)
        return contacts
    }

    /// ADD_UPDATE_CONTACT with the whole record, read back to confirm and stored.
    @discardableResult
    public func save(_ contact: Contact) async throws -> StoredContact {
        guard contact.name.utf8.count < 32 else { throw ContactsError.invalidName(contact.name, reason: "at most 31 bytes") }
        // Without lastmod on the wire the radio stamps its own clock; a record carrying 0 would
        // never be listed by GET_CONTACTS (it lists lastmod > since), so other apps never see it.
        try await session.expectOK(.addUpdateContact(AddUpdateContact(contact: contact, layout: .withPosition)))
        let stored = try await readBack(contact.publicKey)
        guard stored.contact.name == contact.name, stored.contact.type == contact.type, stored.contact.flags == contact.flags,
              stored.contact.outPath == contact.outPath else {
            throw ContactsError.notApplied(contact.name, what: "the contact record")
        }
        return stored
    }

    /// REMOVE_CONTACT; its messages stay in the store.
    public func remove(_ key: PublicKey) async throws {
        try await session.expectOK(.removeContact(key))
        try await removed(key)
    }

    /// Another client of the radio removed `key` (a companion client's REMOVE_CONTACT, see
    /// RelayedCommand): the store follows, as after `remove`.
    func removed(_ key: PublicKey) async throws { try await keeper.keepRemoved(key) }

    /// RESET_PATH: messages to it go flood until a new path is learnt.
    @discardableResult
    public func resetPath(_ key: PublicKey) async throws -> StoredContact {
        try await session.expectOK(.resetPath(key))
        let stored = try await readBack(key)
        guard stored.contact.outPath.length.isNone else { throw ContactsError.notApplied(stored.name, what: "the path reset") }
        return stored
    }

    /// The favourite flag (bit 0: protected from overwrite-oldest), on the radio and here.
    @discardableResult
    public func setFavourite(_ key: PublicKey, _ favourite: Bool) async throws -> StoredContact {
        var contact = try stored(key).contact
        if favourite { contact.flags.insert(.favourite) } else { contact.flags.remove(.favourite) }
        return try await save(contact)   // the store's favourite follows flag bit 0
    }

    /// SHARE_CONTACT: the radio re-broadcasts the contact's advert zero-hop.
    public func share(_ key: PublicKey) async throws { try await session.expectOK(.shareContact(key)) }

    /// SEND_SELF_ADVERT: the radio announces itself (name, key, and its position when its
    /// location policy shares it), zero-hop to the radios in direct range, or flooded through
    /// every repeater within its default flood scope. Others add or refresh it as a contact.
    public func advertise(flood: Bool) async throws { try await session.expectOK(.sendSelfAdvert(flood: flood)) }

    /// EXPORT_CONTACT: the signed advert ("card") of a contact, or of the radio itself with nil.
    public func exportCard(_ key: PublicKey? = nil) async throws -> [UInt8] {
        try await session.expect(.exportContact(key)) { if case let .exportContact(advert) = $0 { advert } else { nil } }
    }

    /// IMPORT_CONTACT: a card goes in as if heard over the air; the radio checks its signature.
    /// It answers OK before it looks at the card, then ignores it when it already holds a newer
    /// advert of that node, or adds heard nodes only by hand (manual add): so the contact is
    /// looked for afterwards, and a card that left none on the radio is not applied.
    @discardableResult
    public func importCard(_ card: [UInt8]) async throws -> StoredContact {
        let advert: AdvertPacket, app: AdvertAppData
        do {
            advert = try AdvertPacket(decoding: card)
            app = try AdvertAppData(decoding: advert.appData)
        } catch {
            throw ContactsError.invalidCard(reason: "\(error)")
        }
        try await session.expectOK(.importContact(advert: card))
        try await sync()
        guard let contact = try context.store.reader.contact(context.radio, key: advert.publicKey), contact.isOnRadio else {
            throw ContactsError.importIgnored(ContactURI(name: app.name ?? "", publicKey: advert.publicKey, type: app.type))
        }
        return contact
    }

    /// The `meshcore://contact/add` link of a contact.
    public func uri(_ key: PublicKey) throws -> ContactURI {
        let contact = try stored(key)
        return ContactURI(name: contact.name, publicKey: key, type: contact.contact.type)
    }

    /// Adds the contact a `meshcore://contact/add` link names (flood path until one is learnt).
    @discardableResult
    public func add(_ link: ContactURI) async throws -> StoredContact {
        try await save(Contact(publicKey: link.publicKey, type: link.type, name: link.name))
    }

    private func stored(_ key: PublicKey) throws -> StoredContact {
        guard let c = try context.store.reader.contact(context.radio, key: key) else { throw ContactsError.notFound(key.prefix(6).hex) }
        return c
    }

    /// GET_CONTACT_BY_KEY, stored and announced.
    private func readBack(_ key: PublicKey) async throws -> StoredContact {
        let contact = try await session.expect(.getContactByKey(key)) { if case let .contact(c) = $0 { c } else { nil } }
        let saved = try await keeper.keep([contact])
        guard let first = saved.first else { throw ContactsError.notFound(key.prefix(6).hex) }
        return first
    }
}
