/// How a DM is retried (Docs/protocol.md §7.4 note 5, after meshcore_py's `send_msg_with_retry`):
/// attempts up to `directAttempts` go as the radio routes them (direct when it knows a
/// path), later ones flood after one RESET_PATH; each waits the radio's suggested timeout ×
/// `timeoutFactor` for its ACK, with a pause of `backoff` × attempt number before the next.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in all, the first included (at least 1; meshcore_py's default is 3).
    public var maxAttempts: Int
    /// Attempts sent as the radio routes them; from the next one on the message floods.
    public var directAttempts: Int
    /// Wait for an ACK this many times the radio's suggested timeout (meshcore_py: 1.2).
    public var timeoutFactor: Double
    /// Multiplies every wait measured in mesh time (ACK waits, backoff, echo window): 1 on
    /// a real radio, 1/n against a simulator whose clock runs n times faster.
    public var timeoutScale: Double
    /// The pause before attempt n + 1 is `backoff` × n.
    public var backoff: Duration
    /// How long after a message is settled (delivered, failed, or a channel message sent)
    /// its echoes are still counted as heard repeats, and a late ACK still delivers it.
    public var echoWindow: Duration

    public init(maxAttempts: Int = 3, directAttempts: Int = 2, timeoutFactor: Double = 1.2, timeoutScale: Double = 1,
                backoff: Duration = .milliseconds(200), echoWindow: Duration = .seconds(10)) {
        self.maxAttempts = max(1, maxAttempts)
        self.directAttempts = max(0, directAttempts)
        self.timeoutFactor = timeoutFactor.isFinite && timeoutFactor > 0 ? timeoutFactor : 1.2
        self.timeoutScale = timeoutScale.isFinite && timeoutScale > 0 ? timeoutScale : 1
        self.backoff = backoff
        self.echoWindow = echoWindow
    }

    public static let standard = RetryPolicy()

    /// The largest DM text, in UTF-8 bytes: attempts past the fourth carry their number after
    /// the text (attempt field > 3), which leaves 158 bytes (Docs/protocol.md §3).
    public var maxTextBytes: Int { maxAttempts > 4 ? 158 : 160 }

    /// Whether attempt `number` (from 1) floods after a RESET_PATH.
    public func floods(attempt number: Int) -> Bool { number > directAttempts }

    /// How long attempt's ACK is waited for, from the suggested timeout in SENT.
    public func ackWait(suggestedMs: UInt32) -> Duration { scaled(.milliseconds(Int64(suggestedMs)) * timeoutFactor) }

    /// The pause after attempt `number` failed, before the next one.
    public func pause(after number: Int) -> Duration { scaled(backoff * number) }

    public var scaledEchoWindow: Duration { scaled(echoWindow) }

    private func scaled(_ d: Duration) -> Duration { timeoutScale == 1 ? d : d * timeoutScale }
}
