/// How a session reopens a lost link: waits growing from `firstDelay` by `factor` up to
/// `maxDelay` between attempts, at most `attempts` times.
public struct ReconnectPolicy: Hashable, Sendable {
    public var attempts: Int
    public var firstDelay: Duration
    public var maxDelay: Duration
    public var factor: Int

    public init(attempts: Int, firstDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30), factor: Int = 2) {
        self.attempts = attempts
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.factor = factor
    }

    /// Keeps trying: a radio rebooting or walking out of BLE range comes back.
    public static let standard = ReconnectPolicy(attempts: .max)
    public static let never = ReconnectPolicy(attempts: 0)

    /// The wait before attempt `n` (1-based).
    public func delay(before n: Int) -> Duration {
        var d = firstDelay
        for _ in 1..<max(n, 1) {
            d *= factor
            if d >= maxDelay { return maxDelay }
        }
        return min(d, maxDelay)
    }
}
