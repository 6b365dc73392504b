import Foundation
import MeshCodec
import Testing

@testable import MeshStore

@Suite struct ContactTests {
    @Test func savesUpdatesAndListsContacts() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        let alice = Fixture.contact(Fixture.key(0x11), name: "alice")
        var bob = Fixture.contact(Fixture.key(0x22), name: "Bob", type: .repeater)
        bob.flags = .favourite
        bob.outPath = Path(hops: [[0xAA, 0xBB], [0xCC, 0xDD]], hashSize: 2)!
        try await t.writer.saveContacts(radio, [alice, bob])
        #expect(try t.reader.contacts(radio).map(\.name) == ["Bob", "alice"])  // favourites first
        let stored = try #require(try t.reader.contact(radio, key: bob.publicKey))
        #expect(stored.contact == bob && stored.isFavourite)

        t.clock.advance(seconds: 5)
        var renamed = alice
        renamed.name = "Alice"
        renamed.lastModified = 200
        try await t.writer.saveContacts(radio, [renamed, bob])
        let updated = try #require(try t.reader.contact(radio, key: alice.publicKey))
        #expect(updated.name == "Alice" && updated.contact.lastModified == 200)
        #expect(updated.updatedAt == t.clock.now && updated.createdAt == Fixture.t0)
        // Unchanged records keep their updatedAt.
        #expect(try t.reader.contact(radio, key: bob.publicKey)?.updatedAt == Fixture.t0)
        #expect(try t.reader.contactCount(radio) == 2)

        try await t.writer.setFavourite(radio, bob.publicKey, false)
        #expect(try t.reader.contacts(radio).map(\.name) == ["Alice", "Bob"])
    }

    @Test func aRemovedContactLeavesTheListButKeepsItsHistory() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        let alice = Fixture.contact(Fixture.key(0x11), name: "alice")
        let bob = Fixture.contact(Fixture.key(0x22), name: "bob")
        let carol = Fixture.contact(Fixture.key(0x33), name: "carol")
        try await t.writer.saveContacts(radio, [alice, bob, carol])
        try await t.writer.saveIncoming(radio, [Fixture.dm(from: bob.publicKey, "keep me")])

        #expect(try await t.writer.markContactsRemoved(radio, [bob.publicKey]) == 1)
        #expect(try t.reader.contacts(radio).map(\.name) == ["alice", "carol"] && t.reader.contactCount(radio) == 2)
        let removed = try #require(try t.reader.contact(radio, key: bob.publicKey))
        #expect(!removed.isOnRadio && removed.messageCount == 1)
        #expect(try t.reader.timeline(radio, .direct(bob.publicKey)).messages.map(\.text) == ["keep me"])

        // A full sync without carol marks her; one with bob again brings him back.
        let (saved, gone) = try await t.writer.replaceContacts(radio, [alice, bob])
        #expect(saved.count == 2 && gone == [carol.publicKey])
        #expect(try t.reader.contacts(radio).map(\.name) == ["alice", "bob"])
        #expect(try t.reader.contact(radio, key: bob.publicKey)?.isOnRadio == true)
    }

    @Test func contactSyncWatermarkAndSettings() async throws {
        let t = try TestStore()
        var info = Fixture.radio()
        let radio = try await t.writer.register(info).id
        try await t.writer.setContactsLastmod(radio, 1_760_000_123)
        try await t.writer.markConnected(radio, at: Fixture.t0.addingTimeInterval(60))
        info.radio.spreadingFactor = 9
        info.txPower = 10
        try await t.writer.register(info)
        let stored = try #require(try t.reader.radio(radio))
        #expect(stored.contactsLastmod == 1_760_000_123)
        #expect(stored.lastConnectedAt == Fixture.t0.addingTimeInterval(60))
        #expect(stored.selfInfo == info)
        await #expect(throws: StoreError.notFound(what: "radio \(RadioID(publicKey: Fixture.key(0x77))) (to set its contact-sync watermark)")) {
            try await t.writer.setContactsLastmod(RadioID(publicKey: Fixture.key(0x77)), 1)
        }
    }

    @Test("lookup by full key and by 1- to 6-byte prefix; an ambiguous prefix is reported")
    func prefixLookup() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        let a = Fixture.key(hex: "a1b2c3d4e5f6" + String(repeating: "00", count: 26))
        let b = Fixture.key(hex: "a1b2c3d4e5f7" + String(repeating: "00", count: 26))
        let c = Fixture.key(hex: "ffffffffffff" + String(repeating: "ff", count: 26))
        try await t.writer.saveContacts(radio, [a, b, c].enumerated().map { Fixture.contact($1, name: "n\($0)") })

        for n in 1...5 {
            #expect(try t.reader.lookupContact(radio, prefix: a.prefix(n)) == .ambiguous(matches: 2), "\(n) bytes")
        }
        #expect(try t.reader.lookupContact(radio, prefix: a.prefix(6)).contact?.publicKey == a)
        #expect(try t.reader.lookupContact(radio, prefix: b.prefix(6)).contact?.publicKey == b)
        #expect(try t.reader.lookupContact(radio, prefix: a.prefix(32)).contact?.publicKey == a)
        // All-0xFF prefixes have no upper bound; the scan still stops at the right rows.
        for n in 1...6 { #expect(try t.reader.lookupContact(radio, prefix: c.prefix(n)).contact?.publicKey == c) }
        #expect(try t.reader.lookupContact(radio, prefix: KeyPrefix([0xA1, 0xB3])!) == .notFound)
        #expect(try t.reader.lookupContact(radio, prefix: KeyPrefix([0x00])!) == .notFound)
    }

    @Test("a DM from an unknown or ambiguous prefix is kept, then attached when its contact arrives")
    func unresolvedSenders() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        let stranger = Fixture.key(0x44)
        let saved = try await t.writer.saveIncoming(radio, [Fixture.dm(from: stranger, "hi, who am I?")])
        #expect(saved.first?.sender == .unknown && saved.first?.conversation == nil)
        #expect(try t.reader.unresolvedMessages(radio).map(\.text) == ["hi, who am I?"])

        try await t.writer.saveContacts(radio, [Fixture.contact(stranger, name: "Dana")])
        let page = try t.reader.timeline(radio, .direct(stranger))
        #expect(page.messages.map(\.text) == ["hi, who am I?"] && page.messages.first?.senderName == "Dana")
        #expect(try t.reader.unresolvedMessages(radio).isEmpty)
        #expect(try t.reader.contact(radio, key: stranger)?.unreadCount == 1)

        // Two contacts share the first 6 bytes: the DM is not given to either.
        let twinA = Fixture.key(0x55, last: 1)
        let twinB = Fixture.key(0x55, last: 2)
        try await t.writer.saveContacts(radio, [Fixture.contact(twinA, name: "A"), Fixture.contact(twinB, name: "B")])
        let ambiguous = try await t.writer.saveIncoming(radio, [Fixture.dm(from: twinA, "which one?")])
        #expect(ambiguous.first?.sender == .ambiguous(matches: 2))
        #expect(try t.reader.timeline(radio, .direct(twinA)).messages.isEmpty)
        #expect(try t.reader.timeline(radio, .direct(twinB)).messages.isEmpty)
        #expect(try t.reader.unresolvedMessages(radio).map(\.text) == ["which one?"])
    }

    @Test func channelsAndSessions() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        let slots = [ChannelInfo(index: 0, name: "Public", secret: .publicChannel),
                     ChannelInfo(index: 1, name: "#mesh", secret: .hashtag("#mesh")),
                     ChannelInfo(index: 2, name: "ops", secret: .passphrase("secret words")),
                     ChannelInfo(index: 3, name: "", secret: .empty)]
        try await t.writer.saveChannels(radio, slots)
        #expect(try t.reader.channels(radio).map(\.kind) == [.public, .hashtag, .private, .empty])
        try await t.writer.saveChannels(radio, [ChannelInfo(index: 2, name: "ops2", secret: .passphrase("other"))])
        #expect(try t.reader.channels(radio).map(\.name) == ["Public", "#mesh", "ops2", ""])

        let repeater = Fixture.key(0x66)
        try await t.writer.saveContacts(radio, [Fixture.contact(repeater, name: "Hilltop", type: .repeater)])
        try await t.writer.saveLogin(radio, node: repeater, role: .repeater, permission: 3, at: Fixture.t0)
        #expect(try t.reader.savedLogins(radio).map(\.isConnected) == [true])
        _ = try await t.store.radioDisconnected(radio)
        let session = try #require(try t.reader.savedLogins(radio).first)
        #expect(!session.isConnected && session.permission == 3 && session.lastLoginAt == Fixture.t0 && session.role == .repeater)
        await #expect(throws: StoreError.self) {
            try await t.writer.saveLogin(radio, node: Fixture.key(0x67), role: .room, permission: 0, at: Fixture.t0)
        }
    }

    @Test("room posts are de-duplicated per session")
    func roomMessages() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        let room = Fixture.key(0x77)
        try await t.writer.saveContacts(radio, [Fixture.contact(room, name: "Room", type: .room)])
        let post = ContactMessage(senderPrefix: room.prefix(6), pathLength: .none, textType: .signedPlain, senderTimestamp: 5,
                                  authorPrefix: KeyPrefix([1, 2, 3, 4]), text: "hello room")
        let first = try await t.writer.saveRoomMessages(radio, room: room, [post], receivedAt: Fixture.t0)
        let again = try await t.writer.saveRoomMessages(radio, room: room, [post], receivedAt: Fixture.t0.addingTimeInterval(9))
        #expect(!first[0].isDuplicate && again[0].isDuplicate && again[0].id == first[0].id)
        let posts = try t.reader.roomMessages(radio, room: room)
        #expect(posts.count == 1 && posts[0].authorPrefix == KeyPrefix([1, 2, 3, 4]))
    }
}
