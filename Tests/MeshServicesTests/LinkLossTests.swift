import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// Links cut at seeded random frames of initialization, contact sync and message drain, on
/// both sides of the radio (before it sees a command, or after it answered): every message
/// the radio queued ends up in the store exactly once, and every message sent is stored once,
/// delivered or failed with its reason (never left pending). (A loss after the radio dequeued a
/// message but before its answer arrives loses it in the firmware too; not injected.)
@Suite(.timeLimit(.minutes(2))) struct LinkLossTests {
    /// 100 seeds from 0; Tools/link-loss.sh moves the start to run more in batches.
    static let seeds: Range<UInt64> = {
        let first = UInt64(ProcessInfo.processInfo.environment["MESHPORT_LINK_LOSS_FIRST_SEED"].flatMap(Int.init) ?? 0)
        return first..<(first + 100)
    }()

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
        // Frames of initialization (about 14 plus the drain), the later drain and the sends.
        let loss = LinkLoss(seed: seed, losses: 3, maxFrame: queued + 40)
        let client = try h.client(loss: loss)
        let pump = h.pump()
        defer { pump.cancel() }
        // A first connect that fails is the person's to retry (no reconnect before the first success).
        var context: ServiceContext?
        for _ in 0..<6 where context == nil {
            do {
                context = try await client.connect()
            } catch is SessionError {
                continue
            }
        }
        let connected = try #require(context, "seed \(seed): no connect in 6 tries")
        // More arrive while connected: MSG_WAITING drains, and the link may fail under it.
        for i in 0..<8 {
            await h.radio.deliver(.channel(index: 0, senderName: "Bob", text: "after \(seed)-\(i)", sentAt: ClientHarness.now + 100 + UInt32(i), hops: 0))
        }
        let radio = await h.radioID
        // This run's messages only: the simulated mesh around the radio adds its own traffic as
        // its clock runs (more of it when the machine is slow), which is not what is counted here.
        let ours = Set((0..<12).map { "before \(seed)-\($0)" } + (0..<8).map { "after \(seed)-\($0)" })
        var rows = 0
        for _ in 0..<2000 {
            rows = try h.store.reader.timeline(radio, .channel(0), limit: 1000).messages.filter { ours.contains($0.text) }.count
            let empty = await h.radio.state.offlineQueue.isEmpty
            if rows >= ours.count, empty, await client.session.state == .ready { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(rows == ours.count, "seed \(seed): \(rows) stored of \(ours.count) queued (\(queued) before connecting)")
        try await send(seed: seed, connected, h)
        let texts = try h.store.reader.timeline(radio, .channel(0), limit: 1000).messages.map(\.text)
        for text in (0..<12).map({ "before \(seed)-\($0)" }) + (0..<8).map({ "after \(seed)-\($0)" }) {
            #expect(texts.filter { $0 == text }.count == 1, "seed \(seed): \(text) stored \(texts.filter { $0 == text }.count) times")
        }
        try await client.disconnect()
    }

    /// Two DMs, each ending delivered or failed with a reason, stored once.
    func send(seed: UInt64, _ context: ServiceContext, _ h: ClientHarness) async throws {
        let friend = try #require(try h.store.reader.contacts(context.radio).first { $0.contact.type == .chat })
        let messenger = Messenger(context: context, policy: RetryPolicy(timeoutScale: 1.0 / 40))
        for i in 0..<2 {
            do {
                _ = try await messenger.send("out \(seed)-\(i)", to: friend.publicKey)
            } catch {
                // A link lost under the send (a typed MessagingError): the stored message must
                // say so, which is checked below.
            }
        }
        let thread = try h.store.reader.timeline(context.radio, .direct(friend.publicKey), limit: 1000).messages
        for i in 0..<2 {
            let copies = thread.filter { $0.text == "out \(seed)-\(i)" }
            #expect(copies.count == 1, "seed \(seed): out \(i) stored \(copies.count) times")
            guard let m = copies.first else { continue }
            #expect(m.status == .delivered || (m.status == .failed && m.failureReason != nil),
                    "seed \(seed): out \(i) left \(m.status) (\(m.failureReason ?? "no reason"))")
        }
    }
}
