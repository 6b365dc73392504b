import Foundation
import GRDB
import MeshCodec
import Testing

@testable import MeshStore

/// Observation streams (GRDB ValueObservation) for timelines, unread counts and contacts.
@Suite(.timeLimit(.minutes(1))) struct ObservationTests {
    let alice = Fixture.key(0x11)

    @Test func timelineStream() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        var updates = t.reader.observeTimeline(radio, .channel(0), limit: 2).makeAsyncIterator()
        #expect(try await updates.next()?.messages.isEmpty == true)
        try await t.writer.saveIncoming(radio, [Fixture.channel(0, "a: first", at: 1, ts: 1)])
        #expect(try await updates.next()?.messages.map(\.text) == ["first"])
        try await t.writer.saveIncoming(radio, [Fixture.channel(0, "a: second", at: 2, ts: 2), Fixture.channel(0, "a: third", at: 3, ts: 3)])
        let page = try await updates.next()
        #expect(page?.messages.map(\.text) == ["third", "second"] && page?.older != nil)
    }

    @Test func unreadAndContactStreams() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        var unread = t.reader.observeUnreadCounts(radio).makeAsyncIterator()
        var contacts = t.reader.observeContacts(radio).makeAsyncIterator()
        #expect(try await unread.next()?.total == 0)
        #expect(try await contacts.next()?.isEmpty == true)
        try await t.writer.saveContacts(radio, [Fixture.contact(alice, name: "Alice")])
        #expect(try await contacts.next()?.map(\.name) == ["Alice"])
        try await t.writer.saveIncoming(radio, [Fixture.dm(from: alice, "hi")])
        #expect(try await unread.next() == UnreadCounts(byConversation: [.direct(alice): 1]))
        try await t.writer.markRead(radio, .direct(alice))
        #expect(try await unread.next()?.total == 0)
    }

    @Test("rows written by the bulk path still reach GRDB observers")
    func bulkInsertsAreObserved() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        try await t.writer.saveContacts(radio, [Fixture.contact(alice, name: "Alice")])
        // Without SQLite snapshots (Linux) GRDB may repeat the first value; duplicates are dropped.
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM positions") ?? 0 }.removeDuplicates()
        var counts = observation.values(in: t.store.database.writer).makeAsyncIterator()
        #expect(try await counts.next() == 0)
        try await t.writer.saveSamples(radio, SampleBatch(positions: [PositionSample(node: alice, coordinates: .zero, recordedAt: Fixture.t0)]))
        #expect(try await counts.next() == 1)
    }
}
