import Foundation
import MeshCodec
import MeshStore

/// Sends direct and channel messages (Docs/protocol.md §7.4, §7.6) and follows them to the end:
/// each is saved `pending` before its frame goes out, moved to `sent` by the radio's answer,
/// then `delivered` by the first ACK of any of its attempts or `failed` with the reason once
/// every attempt went unanswered. Echoes of our packets heard on air (LOG_RX_DATA) count as
/// heard repeats. Every change is written to the store and emitted as `.messageStatus`.
public actor Messenger {
    public let context: ServiceContext
    public let policy: RetryPolicy
    /// This machine's clock, epoch seconds: the messages' sender timestamps.
    let now: @Sendable () -> UInt32
    var lastTimestamp: UInt32 = 0
    /// Messages whose ACK or echoes are being watched, by message id.
    var tracked: [Int64: Tracked] = [:]
    var nextToken = 0
    /// DMs sent with `wait: false` whose tracking goes on.
    var background: [Int64: Task<DeliveryReport, Never>] = [:]
    /// The outcomes of the last background sends, for `outcome(of:)`.
    var finished: [Int64: DeliveryReport] = [:]
    var finishedOrder: [Int64] = []
    static let finishedKept = 100

    public init(context: ServiceContext, policy: RetryPolicy = .standard,
                now: @escaping @Sendable () -> UInt32 = { UInt32(Date().timeIntervalSince1970) }) {
        self.context = context
        self.policy = policy
        self.now = now
    }

    var session: RadioSession { context.session }
    var radioURL: String { context.radioURL }

    /// A sender timestamp for a new message: this machine's clock, but never the same value
    /// twice (the same text in the same second would otherwise share its ACK code).
    func nextTimestamp() -> UInt32 {
        let t = max(now(), lastTimestamp &+ 1)
        lastTimestamp = t
        return t
    }

    /// The outcome of a DM sent with `wait: false`: waits while its tracking goes on. nil
    /// for a message this messenger did not send that way, or whose outcome was dropped
    /// (the last 100 are kept).
    public func outcome(of messageId: Int64) async -> DeliveryReport? {
        if let task = background[messageId] { return await task.value }
        return finished[messageId]
    }

    /// Stops watching every message: no more ACKs or heard repeats are recorded. A DM sent
    /// without waiting whose ACK is still awaited is marked failed ("cancelled during ...");
    /// settled messages keep their status.
    public func stop() {
        for task in background.values { task.cancel() }
        for id in Array(tracked.keys) { untrack(id) }
    }

    /// Messages sent and not settled yet: direct messages awaiting their ACK, channel messages
    /// until the radio took them.
    public var pendingSends: Int { tracked.values.count(where: { $0.linger == nil }) }

    func emit(_ message: StoredMessage) { context.events.emit(.messageStatus(message)) }
    func problem(_ text: String) { context.events.emit(.problem(text)) }

    func remember(_ report: DeliveryReport) {
        let id = report.message.id
        background[id] = nil
        finished[id] = report
        finishedOrder.append(id)
        if finishedOrder.count > Self.finishedKept { finished[finishedOrder.removeFirst()] = nil }
    }
}
