import Foundation
import GRDB
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// A store that refuses a write (a full disk; here another writer holding the file past the
/// store's 5 s busy wait) must not lose a message the radio already handed over: the radio
/// has forgotten it once SYNC_NEXT_MESSAGE answered (Tools/Reliability/chaos.py, disk full).
@Suite(.timeLimit(.minutes(1))) struct RefusedWriteTests {
    @Test func aMessageTheStoreRefusesIsHeldAndWrittenOnceItTakesWritesAgain() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        try await client.connect()
        let radio = await h.radioID
        let before = try h.store.reader.rowCounts(radio)["messages", default: 0]
        let events = client.events.subscribe()
        let other = try await Self.lockedByAnotherWriter(h)

        await h.radio.deliver(.channel(index: 0, senderName: "Ann", text: "kept through a refusal", sentAt: ClientHarness.now, hops: 1))
        let problem = await firstEvent(events) { e -> String? in if case let .problem(text) = e, text.contains("held") { text } else { nil } }
        #expect(problem?.contains("1 received message(s) held") == true, "\(problem ?? "no problem reported")")
        #expect(await h.radio.state.offlineQueue.isEmpty)

        try await other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        let received = await firstEvent(events) { e -> StoredMessage? in if case let .messageReceived(m) = e { m } else { nil } }
        #expect(received?.text == "kept through a refusal")
        #expect(try h.store.reader.rowCounts(radio)["messages", default: 0] == before + 1)
        try await client.disconnect()
    }

    /// The same for a message a companion client drained through the server (the radio let
    /// go of it when it answered that client's SYNC_NEXT_MESSAGE): held, then written.
    @Test func aMessageACompanionClientDrainedIsHeldWhileTheStoreRefusesIt() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        let context = try await client.connect()
        let radio = await h.radioID
        let before = try h.store.reader.rowCounts(radio)["messages", default: 0]
        let events = client.events.subscribe()
        let other = try await Self.lockedByAnotherWriter(h)

        let message = ChannelMessage(channelIndex: 0, pathLength: PathLength(hops: 1)!, senderTimestamp: ClientHarness.now, text: "Ann: drained by another app")
        await RelayedCommand(context: context, client: client).keep(.syncNextMessage, answer: [.response(.channelMessage(message))]) { _ in }
        let problem = await firstEvent(events) { e -> String? in if case let .problem(text) = e, text.contains("held") { text } else { nil } }
        #expect(problem?.contains("companion client drained is held") == true, "\(problem ?? "no problem reported")")

        try await other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        let received = await firstEvent(events) { e -> StoredMessage? in if case let .messageReceived(m) = e { m } else { nil } }
        #expect(received?.text == "drained by another app")
        #expect(try h.store.reader.rowCounts(radio)["messages", default: 0] == before + 1)
        try await client.disconnect()
    }

    /// Another connection to the store's file holding its write lock (BEGIN IMMEDIATE) until
    /// it rolls back: the store's writes wait their 5 s, then fail.
    private static func lockedByAnotherWriter(_ h: ClientHarness) async throws -> DatabaseQueue {
        var config = GRDB.Configuration()
        config.allowsUnsafeTransactions = true
        config.busyMode = .timeout(5)
        let other = try DatabaseQueue(path: h.dir.path(), configuration: config)
        try await other.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        return other
    }
}
