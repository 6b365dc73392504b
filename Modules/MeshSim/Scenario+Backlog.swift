import MeshCodec

/// A scenario's `backlog`: messages already waiting in the offline queue at start, as if
/// they arrived before any app connected (load tests: a client draining a full queue).
public struct BacklogSpec: Codable, Hashable, Sendable {
    /// DMs, from the chat contacts in turn (in key order).
    public var dms: Int?
    /// Channel messages on slot 0 (Public), from the same senders in turn.
    public var channel: Int?
    /// Each message's text is "<text> <n>" (n from 1); default "queued message". Each must fit
    /// its kind's limit (Scenario+Texts.swift).
    public var text: String?

    public init(dms: Int? = nil, channel: Int? = nil, text: String? = nil) {
        self.dms = dms
        self.channel = channel
        self.text = text
    }
}

extension Scenario {
    /// Queues the backlog, DMs and channel messages alternating while both remain. It must
    /// fit the queue: the firmware would drop the overflow, which a scenario never means.
    func queueBacklog(_ b: BacklogSpec, in s: inout SimRadioState) throws {
        let dms = try Self.check(b.dms ?? 0, in: 0...10_000, "backlog.dms")
        let channel = try Self.check(b.channel ?? 0, in: 0...10_000, "backlog.channel")
        guard dms + channel <= s.limits.offlineQueueSize - s.offlineQueue.count else {
            throw ScenarioError("backlog", "\(dms + channel) messages do not fit the offline queue (radio.offlineQueueSize is \(s.limits.offlineQueueSize))")
        }
        let senders = s.contacts.contacts.filter { $0.type == .chat }.compactMap { s.nodes[$0.publicKey] }
            .sorted { $0.publicKey.bytes.lexicographicallyPrecedes($1.publicKey.bytes) }
        guard !senders.isEmpty || dms + channel == 0 else { throw ScenarioError("backlog", "no chat contact to send the messages") }
        let text = b.text ?? "queued message"
        let start = s.deviceTime(at: .zero) &- 3600
        var (leftDMs, leftChannel) = (dms, channel)
        for n in 0..<(dms + channel) {
            let from = senders[n % senders.count]
            let sentAt = start &+ UInt32(n)
            let line = "\(text) \(n + 1)"
            if leftDMs > 0, leftChannel == 0 || n % 2 == 0 {
                leftDMs -= 1
                SimHandler.deliver(&s, .direct(from: from.publicKey, text: try Self.dmText(line, "backlog.text"), sentAt: sentAt), at: .zero)
            } else {
                leftChannel -= 1
                let checked = try Self.channelText(line, sender: from.name, "backlog.text")
                SimHandler.deliver(&s, .channel(index: 0, senderName: from.name, text: checked, sentAt: sentAt, hops: from.hops), at: .zero)
            }
        }
        // Arrived before the start: queued now, their pushes went to no app.
        _ = SimHandler.advance(&s, to: .zero)
    }
}
