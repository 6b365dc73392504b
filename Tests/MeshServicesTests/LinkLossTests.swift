import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// Links cut at seeded random frames of initialization, contact sync and message drain, on
/// both sides of the radio (before it sees a command, or after it answered): every message
/// the radio queued ends up in the store exactly once. (A loss after the radio dequeued a
/// message but before its answer arrives loses it in the firmware too; not injected.)
@Suite(.timeLimit(.minutes(2))) struct LinkLossTests {
    static let seeds = 0..<UInt64(ProcessInfo.processInfo.environment["MESHPORT_LINK_LOSS_RUNS"].flatMap(Int.init) ?? 100)

    /// Made once: deriving the mesh's keys is the slow part of a run.
    static let mesh: SimRadioState = {
        var limits = SimLimits()
        limits.offlineQueueSize = 256   // as most builds: nothing queued here is dropped by the radio
        return DefaultMesh.state(seed: 8, limits: limits)
    }()

    @Test func noMessageIsLostOrDuplicated() async throws {
        for seed in Self.seeds { try await run(seed: seed) }
    }

    func run(seed: UInt64) async throws {
        let h = try ClientHarness(state: Self.mesh)
        for i in 0..<12 {
            await h.radio.deliver(.channel(index: 0, senderName: "Ann", text: "before \(seed)-\(i)", sentAt: ClientHarness.now + UInt32(i), hops: 0))
        }
        let queued = await h.radio.state.offlineQueue.count
        let loss = LinkLoss(seed: seed, losses: 3, maxFrame: queued + 16)
        let client = try h.client(loss: loss)
        // A first connect that fails is the person's to retry (no reconnect before the first success).
        var connected = false
        for _ in 0..<6 where !connected {
            do {
                try await client.connect()
                connected = true
            } catch is SessionError {
                continue
            }
        }
        try #require(connected, "seed \(seed): no connect in 6 tries")
        // More arrive while connected: MSG_WAITING drains, and the link may fail under it.
        for i in 0..<8 {
            await h.radio.deliver(.channel(index: 0, senderName: "Bob", text: "after \(seed)-\(i)", sentAt: ClientHarness.now + 100 + UInt32(i), hops: 0))
        }
        let radio = await h.radioID
        let expected = queued + 8
        var rows = 0
        for _ in 0..<2000 {
            let counts = try h.store.reader.rowCounts(radio)
            rows = counts["messages", default: 0] + counts["room_messages", default: 0]
            let empty = await h.radio.state.offlineQueue.isEmpty
            if rows >= expected, empty, await client.session.state == .ready { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(rows == expected, "seed \(seed): \(rows) stored of \(expected) queued")
        let texts = try h.store.reader.timeline(radio, .channel(0), limit: 1000).messages.map(\.text)
        for text in (0..<12).map({ "before \(seed)-\($0)" }) + (0..<8).map({ "after \(seed)-\($0)" }) {
            #expect(texts.filter { $0 == text }.count == 1, "seed \(seed): \(text) stored \(texts.filter { $0 == text }.count) times")
        }
        try await client.disconnect()
    }
}
