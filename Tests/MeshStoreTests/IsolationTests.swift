import Foundation
import MeshCodec
import Testing

@testable import MeshStore

/// Two radios in one file, both knowing the same contact: neither ever sees the other's rows.
@Suite struct IsolationTests {
    @Test func twoRadiosSameContactKey() async throws {
        let t = try TestStore()
        let one = try await t.writer.register(Fixture.radio(0xA0, name: "One")).id
        let two = try await t.writer.register(Fixture.radio(0xB0, name: "Two")).id
        let shared = Fixture.key(0x11)
        try await t.writer.saveContacts(one, [Fixture.contact(shared, name: "Alice as seen by one")])
        try await t.writer.saveContacts(two, [Fixture.contact(shared, name: "Alice as seen by two"), Fixture.contact(Fixture.key(0x22), name: "Bob")])
        try await t.writer.saveChannels(one, [ChannelInfo(index: 0, name: "Public", secret: .publicChannel)])
        try await t.writer.saveChannels(two, [ChannelInfo(index: 0, name: "#other", secret: .hashtag("#other"))])

        // The same DM (same prefix, timestamp and text) reaches both radios: two rows, one each.
        let dm = Fixture.dm(from: shared, "same words in both radios", ts: 5)
        let a = try await t.writer.saveIncoming(one, [dm, Fixture.channel(0, "x: channel of one", ts: 6)])
        let b = try await t.writer.saveIncoming(two, [dm])
        #expect(!a[0].isDuplicate && !b[0].isDuplicate && a[0].id != b[0].id)
        try await t.writer.saveSamples(one, SampleBatch(positions: [PositionSample(node: shared, coordinates: .zero, recordedAt: Fixture.t0)]))
        let sent = try await t.writer.saveOutgoing(two, OutgoingMessage(conversation: .direct(shared), text: "from two", senderTimestamp: 9))
        try await t.writer.updateMessage(two, id: sent.id, status: .sent, ackCode: AckCode(77))

        let r = t.reader
        #expect(try r.contacts(one).map(\.name) == ["Alice as seen by one"])
        #expect(try r.contacts(two).map(\.name) == ["Alice as seen by two", "Bob"])
        #expect(try r.contact(one, key: shared)?.name == "Alice as seen by one")
        #expect(try r.lookupContact(one, prefix: shared.prefix(6)).contact?.radio == one)
        #expect(try r.lookupContact(one, prefix: Fixture.key(0x22).prefix(6)) == .notFound)
        #expect(try r.channels(one).map(\.name) == ["Public"] && r.channels(two).map(\.name) == ["#other"])
        #expect(try r.timeline(one, .direct(shared)).messages.map(\.text) == ["same words in both radios"])
        #expect(try r.timeline(two, .direct(shared)).messages.map(\.text) == ["from two", "same words in both radios"])
        #expect(try r.timeline(two, .channel(0)).messages.isEmpty)
        #expect(try r.search(one, SearchQuery("channel")).count == 1 && r.search(two, SearchQuery("channel")).isEmpty)
        #expect(try r.search(two, SearchQuery("from")).map(\.message.radio) == [two])
        #expect(try r.unreadCounts(one) == UnreadCounts(byConversation: [.direct(shared): 1, .channel(0): 1]))
        #expect(try r.unreadCounts(two) == UnreadCounts(byConversation: [.direct(shared): 1]))
        #expect(try r.positions(one, node: shared).count == 1 && r.positions(two, node: shared).isEmpty)
        // An id or ACK code of one radio means nothing to the other.
        #expect(try r.message(one, id: b[0].id) == nil)
        #expect(try await t.writer.markDelivered(one, ackCode: AckCode(77), roundTripMs: 1) == nil)
        await #expect(throws: StoreError.self) { try await t.writer.updateMessage(one, id: sent.id, status: .failed) }
        try await t.writer.markRead(one, .direct(shared))
        #expect(try r.unreadCounts(two).total == 1)

        // Removing one radio leaves the other whole.
        try await t.writer.deleteRadio(one)
        #expect(try r.radio(one) == nil && r.contactCount(one) == 0)
        #expect(try r.rowCounts(two) == ["contacts": 2, "channels": 1, "messages": 2, "positions": 0, "telemetry_samples": 0,
                                          "stats_samples": 0, "remote_sessions": 0, "room_messages": 0, "heard_packets": 0])
    }
}
