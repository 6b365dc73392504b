import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// ContactsService against MeshSim: the radio's table is changed, read back and stored.
@Suite(.timeLimit(.minutes(1))) struct ContactsServiceTests {
    private func connected() async throws -> (ClientHarness, MeshClient, ContactsService) {
        let h = try ClientHarness()
        let client = try h.client()
        let context = try await client.connect()
        return (h, client, ContactsService(context: context))
    }

    @Test func resolvesByNameOrKeyPrefixAndRefusesToGuess() async throws {
        let (_, _, contacts) = try await connected()
        let all = try await contacts.list()
        let one = try #require(all.first)
        #expect(try await contacts.resolve(one.name.uppercased()).publicKey == one.publicKey)
        #expect(try await contacts.resolve(String(one.publicKey.hex.prefix(12))).publicKey == one.publicKey)
        await #expect(throws: ContactsError.notFound("nobody-by-this-name")) { try await contacts.resolve("nobody-by-this-name") }
        // One hex digit matches about a sixteenth of the keys: too many to pick from.
        let digit = String(one.publicKey.hex.prefix(1))
        if all.filter({ $0.publicKey.hex.hasPrefix(digit) || $0.name.lowercased().hasPrefix(digit) }).count > 1 {
            await #expect(throws: ContactsError.self) { try await contacts.resolve(digit) }
        }
    }

    @Test func removeKeepsHistoryAndAFullSyncAgrees() async throws {
        let (h, _, contacts) = try await connected()
        let victim = try #require(try await contacts.list().first)
        try await contacts.remove(victim.publicKey)
        #expect(await h.radio.state.contacts.contact(victim.publicKey) == nil)
        #expect(try await contacts.list().allSatisfy { $0.publicKey != victim.publicKey })
        #expect(try h.store.reader.contact(await h.radioID, key: victim.publicKey)?.isOnRadio == false)
        let synced = try await contacts.sync(full: true)
        #expect(synced.count == DefaultMesh.nodeCount - 1)
    }

    @Test func favouriteAndPathResetAreWrittenAndReadBack() async throws {
        let (h, _, contacts) = try await connected()
        let all = try await contacts.list()
        let target = try #require(all.first { !$0.contact.outPath.length.isNone } ?? all.first)
        let starred = try await contacts.setFavourite(target.publicKey, true)
        #expect(starred.isFavourite && starred.contact.flags.contains(.favourite))
        let onRadio = await h.radio.state.contacts.contact(target.publicKey)
        #expect(onRadio?.flags.contains(.favourite) == true)
        let reset = try await contacts.resetPath(target.publicKey)
        #expect(reset.contact.outPath.length.isNone)
    }

    @Test func aCardExportedThenImportedBringsTheContactBack() async throws {
        let (h, _, contacts) = try await connected()
        let target = try #require(try await contacts.list().first)
        let card = try await contacts.exportCard(target.publicKey)
        #expect(!card.isEmpty)
        try await contacts.remove(target.publicKey)
        let added = try await contacts.importCard(card)
        #expect(added.publicKey == target.publicKey && added.isOnRadio)
        #expect(await h.radio.state.contacts.contact(target.publicKey) != nil)
        // A card the radio already holds (same advert) changes nothing and is no failure.
        #expect(try await contacts.importCard(card).publicKey == target.publicKey)
    }

    /// The radio stamps lastmod in whole seconds: a contact changed within the second of the
    /// stored watermark, after the listing that set it, is still listed by the next sync.
    @Test func aContactChangedInTheWatermarksSecondIsListed() async throws {
        let (h, _, contacts) = try await connected()
        let stranger = ContactURI(name: "Stranger", publicKey: PublicKey([UInt8](repeating: 0x5A, count: 32))!, type: .chat)
        try await contacts.add(stranger)
        try await contacts.sync()
        let watermark = try #require(try h.store.reader.radio(await h.radioID)?.contactsLastmod)
        #expect(watermark > 0)
        // Another app changes a contact in that same second.
        var other = try #require(try await contacts.list().first { $0.publicKey != stranger.publicKey }).contact
        other.name = "Renamed"
        other.lastModified = watermark
        _ = await h.radio.handle(.addUpdateContact(AddUpdateContact(contact: other, layout: .full)))
        let listed = try await contacts.sync()
        #expect(listed.contains { $0.publicKey == other.publicKey && $0.name == "Renamed" }, "\(listed.map(\.name))")
        #expect(try h.store.reader.contact(await h.radioID, key: other.publicKey)?.name == "Renamed")
    }

    /// With manual add on, the radio acknowledges a card and only offers the node (NEW_ADVERT):
    /// no contact was added, and the error says how to add it.
    @Test func aCardTheRadioIgnoresIsNotApplied() async throws {
        let (h, _, contacts) = try await connected()
        let target = try #require(try await contacts.list().first)
        let card = try await contacts.exportCard(target.publicKey)
        try await contacts.remove(target.publicKey)
        _ = await h.radio.handle(.setOtherParams(OtherParams(manualAddContacts: 1)))
        let link = ContactURI(name: target.name, publicKey: target.publicKey, type: target.contact.type)
        await #expect(throws: ContactsError.importIgnored(link)) { try await contacts.importCard(card) }
        #expect(await h.radio.state.contacts.contact(target.publicKey) == nil)
        #expect("\(ContactsError.importIgnored(link))".contains("meshport contacts add \(target.publicKey.hex)"))
        await #expect(throws: ContactsError.self) { try await contacts.importCard([0x12, 0x34]) }
    }

    @Test func contactURIsRoundTripAndBadOnesSayWhatIsWrong() async throws {
        let (_, _, contacts) = try await connected()
        let target = try #require(try await contacts.list().first)
        let link = try await contacts.uri(target.publicKey)
        #expect(try ContactURI(parsing: link.text) == link)
        #expect(link.text.hasPrefix("meshcore://contact/add?name="))
        #expect(throws: MeshcoreURIError.invalid("meshcore://contact/add?name=x&public_key=12&type=1", "public_key", "64 hex digits")) {
            try ContactURI(parsing: "meshcore://contact/add?name=x&public_key=12&type=1")
        }
        #expect(throws: MeshcoreURIError.notAMeshcoreURI("https://example.com", expected: "contact/add")) { try ContactURI(parsing: "https://example.com") }
        // A link for someone new adds them with a flood path.
        let stranger = ContactURI(name: "Stranger", publicKey: PublicKey([UInt8](repeating: 0x5A, count: 32))!, type: .chat)
        let added = try await contacts.add(stranger)
        #expect(added.name == "Stranger" && added.contact.outPath.length.isNone)
        // The radio stamped it with its clock, so a listing (another app's, or a fresh
        // database's) includes it.
        #expect(added.contact.lastModified > 0)
        #expect(try await contacts.sync(full: true).map(\.publicKey).contains(stranger.publicKey))
    }
}
