import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// MeshClient against MeshSim with a real store file: what initialization learns is kept,
/// MSG_WAITING drains into the store, a lost link comes back and catches up.
@Suite(.timeLimit(.minutes(1))) struct MeshClientTests {
    @Test func connectKeepsTheRadioItsContactsChannelsAndQueuedMessages() async throws {
        let h = try ClientHarness()
        let queued = await h.radio.state.offlineQueue.count
        let client = try h.client()
        let context = try await client.connect()
        let radio = await h.radioID
        #expect(context.radio == radio)
        let reader = h.store.reader
        #expect(try reader.contactCount(radio) == DefaultMesh.nodeCount)
        #expect(try reader.channels(radio).count == 8)
        let rows = try reader.rowCounts(radio)
        #expect(queued > 0 && rows["messages", default: 0] + rows["room_messages", default: 0] == queued)
        let watermark = try #require(try reader.radio(radio)).contactsLastmod
        #expect(watermark > 0)
        try await client.disconnect()
        #expect(await client.session.state == .disconnected)
    }

    @Test func aSecondConnectAsksOnlyForNewerContacts() async throws {
        let h = try ClientHarness()
        let first = try h.client()
        try await first.connect()
        try await first.disconnect()
        // Nothing changed since the stored watermark: only the contacts of the watermark's own
        // second come again (RadioSession.syncContacts asks from one second before it).
        let watermark = try #require(try h.store.reader.radio(await h.radioID)).contactsLastmod
        let ofThatSecond = await h.radio.state.contacts.contacts.filter { $0.lastModified == watermark }.count
        #expect(ofThatSecond < DefaultMesh.nodeCount)
        #expect(try await contactsSynced(connecting: h) == ofThatSecond)
        #expect(try h.store.reader.contactCount(await h.radioID) == DefaultMesh.nodeCount)
        // The watermark stays where it was.
        let third = try await contactsSynced(connecting: h)
        #expect(third == ofThatSecond, "the third connect downloaded \(third ?? -1) contacts again")
        #expect(try h.store.reader.radio(await h.radioID)?.contactsLastmod == watermark && watermark > 0)
    }

    /// Connects a new client and disconnects it: how many contacts its sync brought.
    private func contactsSynced(connecting h: ClientHarness) async throws -> Int? {
        let client = try h.client()
        let events = client.events.subscribe()
        try await client.connect()
        let synced = await firstEvent(events) { e -> Int? in
            if case let .syncProgress(.contacts(received, total)) = e, total > 0 { received } else { nil }
        }
        try await client.disconnect()
        return synced
    }

    /// A contact the radio holds but never lists (lastmod 0) is not taken for removed.
    @Test func aShortFullListingRemovesNothing() async throws {
        let h = try ClientHarness()
        let first = try h.client()
        let context = try await first.connect()
        let kept = try #require(try h.store.reader.contacts(context.radio).first)
        _ = await h.radio.handle(.addUpdateContact(AddUpdateContact(contact: Contact(publicKey: kept.publicKey, type: kept.contact.type,
                                                                                  name: kept.name))))
        let events = first.events.subscribe()
        try await ContactsService(context: context).sync(full: true)
        #expect(try h.store.reader.contact(context.radio, key: kept.publicKey)?.isOnRadio == true)
        let problem = await firstEvent(events) { e -> String? in if case let .problem(text) = e { text } else { nil } }
        #expect(problem?.contains("keeping the") == true)
    }

    @Test func messageWaitingDrainsIntoTheStore() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        try await client.connect()
        let events = client.events.subscribe()
        await h.radio.deliver(.channel(index: 0, senderName: "Ann", text: "drain me", sentAt: ClientHarness.now, hops: 1))
        let received = await firstEvent(events) { e -> StoredMessage? in if case let .messageReceived(m) = e { m } else { nil } }
        #expect(received?.text == "drain me" && received?.senderName == "Ann")
        #expect(await h.radio.state.offlineQueue.isEmpty)
    }

    @Test func aLostLinkIsReopenedAndCatchesUp() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        try await client.connect()
        let events = client.events.subscribe()
        await h.loseLink()
        // A message arrives while the link is down: the radio queues it.
        await h.radio.deliver(.channel(index: 0, senderName: "Bob", text: "while you were away", sentAt: ClientHarness.now, hops: 0))
        var states: [RadioSession.State] = []
        var texts: [String] = []
        for await event in events {
            if case let .connection(s) = event { states.append(s) }
            if case let .messageReceived(m) = event { texts.append(m.text) }
            if states.last == .ready, texts.contains("while you were away") { break }
        }
        #expect(states.contains(.reconnecting) && states.last == .ready)
        #expect(await h.radio.state.offlineQueue.isEmpty)
        try await client.disconnect()
    }

    @Test func roomPostsAreDrainedIntoTheirRoom() async throws {
        let h = try ClientHarness()
        let pump = h.pump()
        defer { pump.cancel() }
        let client = try h.client()
        let context = try await client.connect()
        let events = client.events.subscribe()
        let room = try #require(try h.store.reader.contacts(context.radio).first { $0.contact.type == .room })
        try await RemoteNodes(context: context, keepAliveInterval: .seconds(3600)).login(room.publicKey, password: DefaultMesh.roomPassword)
        // The room passes on its posts after the login: MSG_WAITING, drained into the room's history.
        var posts = 0
        for await event in events {
            if case let .roomPost(from, _) = event, from == room.publicKey { posts += 1 }
            if posts == 3 { break }
        }
        #expect(try h.store.reader.roomMessages(context.radio, room: room.publicKey).count == 3)
        #expect(try h.store.reader.timeline(context.radio, .direct(room.publicKey)).messages.isEmpty, "not in the DM thread")
    }

    @Test func disconnectWritesTheCoalescedPositions() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        try await client.connect()
        let radio = await h.radioID
        let placed = await h.radio.state.contacts.contacts.filter { !$0.position.isZero }.count
        // Positions wait in the coalescer (2 s idle) until the disconnect writes them.
        try await client.disconnect()
        let positions = try h.store.reader.rowCounts(radio)["positions"]
        #expect(placed > 0 && positions == placed)
    }

    @Test func reconnectWaitsGrowUpToTheLimit() {
        let policy = ReconnectPolicy(attempts: 10, firstDelay: .milliseconds(500), maxDelay: .seconds(30))
        #expect((1...8).map(policy.delay(before:)) == [0.5, 1, 2, 4, 8, 16, 30, 30].map { Duration.milliseconds(Int($0 * 1000)) })
    }
}
