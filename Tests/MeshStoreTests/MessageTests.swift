import Foundation
import MeshCodec
import Testing

@testable import MeshStore

@Suite struct MessageTests {
    let alice = Fixture.key(0x11)

    func setUp() async throws -> (TestStore, RadioID) {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        try await t.writer.saveContacts(radio, [Fixture.contact(alice, name: "Alice")])
        return (t, radio)
    }

    @Test("received messages are saved once; a copy handed over again is reported as a duplicate")
    func incomingAndDedupe() async throws {
        let (t, radio) = try await setUp()
        let batch = [Fixture.dm(from: alice, "hello", ts: 10), Fixture.channel(0, "Carol: on the hill", at: 1, ts: 11),
                     Fixture.dm(from: alice, "hello", ts: 12)]
        let saved = try await t.writer.saveIncoming(radio, batch)
        #expect(saved.map(\.isDuplicate) == [false, false, false])
        #expect(saved[0].conversation == .direct(alice) && saved[0].sender == .resolved(alice))
        #expect(saved[1].conversation == .channel(0))
        // A resync hands the same messages over again (and once twice in one batch).
        let again = try await t.writer.saveIncoming(radio, batch + [batch[0]])
        #expect(again.map(\.isDuplicate) == [true, true, true, true])
        #expect(again.map(\.id) == saved.map(\.id) + [saved[0].id])
        let channel = try t.reader.timeline(radio, .channel(0)).messages
        #expect(channel.map(\.text) == ["on the hill"] && channel[0].senderName == "Carol")
        #expect(channel[0].pathLength == PathLength(hops: 2) && channel[0].status == .received && channel[0].direction == .incoming)
        #expect(try t.reader.rowCounts(radio)["messages"] == 3)
        #expect(try t.reader.unreadCounts(radio) == UnreadCounts(byConversation: [.direct(alice): 2, .channel(0): 1]))
    }

    @Test("a message twice in one new batch is stored once; rows keep the batch's order")
    func duplicateWithinBatch() async throws {
        let (t, radio) = try await setUp()
        let first = Fixture.dm(from: alice, "one", ts: 20)
        let batch = [first, Fixture.channel(0, "Carol: two", at: 1, ts: 21), first, Fixture.dm(from: alice, "three", ts: 22)]
        let saved = try await t.writer.saveIncoming(radio, batch)
        #expect(saved.map(\.isDuplicate) == [false, false, true, false])
        #expect(saved[2].id == saved[0].id && saved[0].id < saved[1].id && saved[1].id < saved[3].id)
        #expect(try t.reader.rowCounts(radio)["messages"] == 3)
        #expect(try t.reader.unreadCounts(radio) == UnreadCounts(byConversation: [.direct(alice): 2, .channel(0): 1]))
        #expect(try t.reader.search(radio, SearchQuery("one")).count == 1)
    }

    @Test("outgoing: pending -> sending -> sent -> delivered, with ACK code, attempt and round trip")
    func outgoingLifecycle() async throws {
        let (t, radio) = try await setUp()
        let pending = try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .direct(alice), text: "ping", senderTimestamp: 77))
        #expect(pending.status == .pending && pending.direction == .outgoing && pending.conversation == .direct(alice))
        try await t.writer.updateMessage(radio, id: pending.id, status: .sending)
        try await t.writer.updateMessage(radio, id: pending.id, status: .sent, ackCode: AckCode(0xAABB_CCDD), attempt: 1)
        let delivered = try #require(try await t.writer.markDelivered(radio, ackCode: AckCode(0xAABB_CCDD), roundTripMs: 2345))
        #expect(delivered.status == .delivered && delivered.roundTripMs == 2345 && delivered.attempt == 1)
        // Multi-acks: the second ACK changes nothing; an ACK nobody waits for answers nil.
        #expect(try await t.writer.markDelivered(radio, ackCode: AckCode(0xAABB_CCDD), roundTripMs: 9999)?.roundTripMs == 2345)
        #expect(try await t.writer.markDelivered(radio, ackCode: AckCode(1), roundTripMs: 1) == nil)
        await #expect(throws: StoreError.invalidArgument(what: "status change of message \(pending.id)", reason: "delivered -> sending is not allowed")) {
            try await t.writer.updateMessage(radio, id: pending.id, status: .sending)
        }
        // Outgoing messages do not count as unread.
        #expect(try t.reader.unreadCounts(radio).total == 0)
    }

    @Test("a timed-out message may still be delivered by a late ACK; a retry hands its ACK code over")
    func failuresAndRetries() async throws {
        let (t, radio) = try await setUp()
        let first = try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .direct(alice), text: "one", senderTimestamp: 1))
        try await t.writer.updateMessage(radio, id: first.id, status: .sent, ackCode: AckCode(42))
        try await t.writer.updateMessage(radio, id: first.id, status: .failed)
        #expect(try await t.writer.markDelivered(radio, ackCode: AckCode(42), roundTripMs: 9000)?.status == .delivered)

        // A later message whose ACK code collides takes it over (the unique index stays true).
        let second = try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .channel(3), text: "two", senderTimestamp: 2))
        try await t.writer.updateMessage(radio, id: second.id, status: .sent, ackCode: AckCode(42))
        #expect(try t.reader.message(radio, id: first.id)?.ackCode == nil)
        #expect(try t.reader.message(radio, id: second.id)?.ackCode == AckCode(42))
        #expect(try await t.writer.recordHeardRepeat(radio, messageId: second.id) == 1)
        #expect(try await t.writer.recordHeardRepeat(radio, messageId: second.id) == 2)
        await #expect(throws: StoreError.self) { try await t.writer.updateMessage(radio, id: 999_999, status: .sending) }
        await #expect(throws: StoreError.self) {
            try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .direct(Fixture.key(0x99)), text: "?", senderTimestamp: 3))
        }
        let pending = try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .direct(alice), text: "three", senderTimestamp: 4))
        await #expect(throws: StoreError.self) { try await t.writer.updateMessage(radio, id: pending.id, status: .delivered) }
    }

    @Test("a failure keeps its reason across reopening; a late ACK or a retry clears it")
    func failureReasons() async throws {
        let (t, radio) = try await setUp()
        let m = try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .direct(alice), text: "hello?", senderTimestamp: 5))
        #expect(m.failureReason == nil)
        try await t.writer.updateMessage(radio, id: m.id, status: .sent, ackCode: AckCode(7), attempt: 3)
        let reason = "no ACK after 3 attempts (2 direct, 1 flood)"
        let failed = try await t.writer.updateMessage(radio, id: m.id, status: .failed, failureReason: reason)
        #expect(failed.status == .failed && failed.failureReason == reason)
        // Read back from the file, not only from the returned value.
        let reopened = try MeshStore.open(at: t.dir.path())
        #expect(try reopened.reader.message(radio, id: m.id)?.failureReason == reason)
        try await reopened.close()
        #expect(try await t.writer.markDelivered(radio, ackCode: AckCode(7), roundTripMs: 4000)?.failureReason == nil)

        let other = try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .channel(0), text: "x", senderTimestamp: 6))
        try await t.writer.updateMessage(radio, id: other.id, status: .failed, failureReason: "CMD_SEND_CHANNEL_TXT_MSG refused")
        #expect(try await t.writer.updateMessage(radio, id: other.id, status: .sending).failureReason == nil)
    }

    @Test("timelines page newest first by (timestamp, id) cursors, ties included")
    func timelinePaging() async throws {
        let (t, radio) = try await setUp()
        // 25 messages, several sharing a timestamp: the id breaks the tie.
        let batch = (0..<25).map { Fixture.channel(1, "n: m\($0)", at: Double($0 / 3), ts: UInt32($0)) }
        try await t.writer.saveIncoming(radio, batch)
        var seen: [String] = []
        var cursor: TimelineCursor?
        var pages = 0
        repeat {
            let page = try t.reader.timeline(radio, .channel(1), before: cursor, limit: 10)
            seen += page.messages.map(\.text)
            cursor = page.older
            pages += 1
        } while cursor != nil
        #expect(pages == 3)
        #expect(seen == (0..<25).reversed().map { "m\($0)" })
        #expect(try t.reader.timeline(radio, .channel(5)).messages.isEmpty)
        #expect(throws: StoreError.self) { try t.reader.timeline(radio, .channel(1), limit: 0) }
    }

    @Test("read state, and soft delete: a late copy cannot resurrect the thread, a new message starts it again")
    func readAndArchive() async throws {
        let (t, radio) = try await setUp()
        let old = Fixture.dm(from: alice, "before the delete", at: 0, ts: 1)
        try await t.writer.saveIncoming(radio, [old, Fixture.dm(from: alice, "also before", at: 1, ts: 2)])
        try await t.writer.markRead(radio, .direct(alice))
        #expect(try t.reader.unreadCounts(radio).total == 0)

        t.clock.advance(seconds: 10)
        try await t.writer.archive(radio, .direct(alice))
        #expect(try t.reader.timeline(radio, .direct(alice)).messages.isEmpty)
        #expect(try t.reader.contact(radio, key: alice)?.isArchived == true)

        // The radio hands an old message over again, received now: still a duplicate, still hidden.
        let late = Fixture.dm(from: alice, "before the delete", at: 20, ts: 1)
        #expect(try await t.writer.saveIncoming(radio, [late]).first?.isDuplicate == true)
        #expect(try t.reader.timeline(radio, .direct(alice)).messages.isEmpty)
        #expect(try t.reader.search(radio, SearchQuery("before")).isEmpty)

        try await t.writer.saveIncoming(radio, [Fixture.dm(from: alice, "after the delete", at: 30, ts: 3)])
        #expect(try t.reader.timeline(radio, .direct(alice)).messages.map(\.text) == ["after the delete"])
        #expect(try t.reader.contact(radio, key: alice)?.isArchived == false)
        #expect(try t.reader.unreadCounts(radio) == UnreadCounts(byConversation: [.direct(alice): 1]))
        await #expect(throws: StoreError.notFound(what: "conversation channel:7 of radio \(radio)")) {
            try await t.writer.archive(radio, .channel(7))
        }
    }

    @Test("legacy frames carry no SNR; V3 frames keep it")
    func snrByFormat() async throws {
        let (t, radio) = try await setUp()
        let legacy = ContactMessage(format: .legacy, senderPrefix: alice.prefix(6), pathLength: .none, senderTimestamp: 1, text: "old")
        let v3 = ContactMessage(format: .v3, snrX4: -12, senderPrefix: alice.prefix(6), pathLength: PathLength(hops: 1)!, senderTimestamp: 2, text: "new")
        try await t.writer.saveIncoming(radio, [.direct(legacy, receivedAt: Fixture.t0), .direct(v3, receivedAt: Fixture.t0.addingTimeInterval(1))])
        let page = try t.reader.timeline(radio, .direct(alice)).messages
        #expect(page.map(\.snrX4) == [-12, nil])
        #expect(page[0].pathLength == PathLength(hops: 1))
    }
}
