import Foundation
import MeshCodec
import MeshServices
import MeshStore
import MeshTransport
import Synchronization
import Testing

/// A radio's answer that comes after its command's time limit (a slow link, a stalled
/// machine): the firmware has already taken a drained message off its queue, so the message
/// is kept all the same, and it is never taken for the answer of the command after it.
@Suite(.timeLimit(.minutes(3))) struct LateAnswerTests {
    @Test func aMessageDrainedAfterItsTimeLimitIsStillKept() async throws {
        let h = try ClientHarness()
        let slow = SlowLink.Switch()
        // A 15 s limit, which connecting meets even in a full parallel run (5 s did not, once);
        // only the drain's SYNC_NEXT_MESSAGE is then held past it.
        let client = try h.client(commandTimeout: .seconds(15)) { SlowLink($0, slow: slow, only: 0x0A) }
        let radio = try await client.connect().radio
        let before = try h.store.reader.rowCounts(radio)["messages", default: 0]
        let events = client.events.subscribe()
        slow.delay.withLock { $0 = .seconds(17) }
        await h.radio.deliver(.channel(index: 0, senderName: "Ann", text: "late but kept", sentAt: ClientHarness.now, hops: 1))
        let (received, problems) = await Self.firstMessage(events, within: .seconds(120))
        #expect(received?.text == "late but kept" && received?.senderName == "Ann")
        #expect(problems.contains { $0.contains("CMD_SYNC_NEXT_MESSAGE") }, "the drain's own command timed out first: \(problems)")
        #expect(await h.radio.state.offlineQueue.isEmpty)
        #expect(try h.store.reader.rowCounts(radio)["messages", default: 0] == before + 1, "kept once")
        try await client.disconnect()
    }

    @Test func aLateMessageIsNotTheAnswerOfTheNextCommand() async throws {
        let h = try ClientHarness()
        // A bare session: no client drains on its own. The default mesh left messages queued.
        let slow = SlowLink.Switch()
        let session = RadioSession(transport: SlowLink(try SimTransport(radio: h.radio), slow: slow), commandTimeout: .milliseconds(150))
        try await session.open()
        #expect(await !h.radio.state.offlineQueue.isEmpty)
        // Each frame held 400 ms, in order: the message answers while GET_DEVICE_TIME waits.
        slow.delay.withLock { $0 = .milliseconds(400) }
        let late = session.subscribe()
        await #expect(throws: SessionError.self) { _ = try await session.call(.syncNextMessage) }
        // Its answer comes after about 800 ms; 30 s, since which answer it gets is what is checked
        // (5 s ran out once beside two busy loops).
        let answer = try await session.call(.getDeviceTime, timeout: .seconds(30))
        guard case .currentTime = answer else {
            Issue.record("GET_DEVICE_TIME was answered by \(RadioFrame.response(answer).name)")
            return
        }
        let handedOn = await within(.seconds(30)) { () -> Response? in
            for await event in late { if case let .lateMessage(r) = event { return r } }
            return nil
        }
        switch handedOn {
        case .contactMessage?, .channelMessage?: break
        default: Issue.record("no late message reported: \(String(describing: handedOn))")
        }
        await session.close()
    }

    /// The first message kept and the problems told before it; nil after `limit`.
    private static func firstMessage(_ events: AsyncStream<ClientEvent>, within limit: Duration) async -> (StoredMessage?, [String]) {
        await within(limit) { () -> (StoredMessage?, [String]) in
            var problems: [String] = []
            for await event in events {
                if case let .problem(text) = event { problems.append(text) }
                if case let .messageReceived(m) = event { return (m, problems) }
            }
            return (nil, problems)
        } ?? (nil, ["no message kept within \(limit)"])
    }
}

/// What `body` returns, or nil when it takes longer than `limit` (it is then cancelled).
private func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            do { try await Task.sleep(for: limit) } catch {}
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// A link that holds every frame (or those of one command) for `slow.delay` before the radio
/// gets it (none at first).
final class SlowLink: WrappingLink, @unchecked Sendable {
    final class Switch: Sendable {
        let delay = Mutex<Duration>(.zero)
    }

    let inner: SimTransport
    private let slow: Switch
    /// The command code held (nil: every frame).
    private let only: UInt8?
    private let order = Mutex<Task<Void, any Error>?>(nil)

    init(_ inner: SimTransport, slow: Switch, only: UInt8? = nil) {
        self.inner = inner
        self.slow = slow
        self.only = only
    }


    /// Frames reach the radio in the order they were sent, each after the delay.
    func send(_ frame: [UInt8]) async throws {
        let held = only == nil || frame.first == only
        let (delay, inner) = (held ? slow.delay.withLock { $0 } : .zero, inner)
        let sending = order.withLock { previous in
            let next = Task { [previous] in
                _ = await previous?.result
                if delay > .zero { try await Task.sleep(for: delay) }
                try await inner.send(frame)
            }
            previous = next
            return next
        }
        try await sending.value
    }
}
