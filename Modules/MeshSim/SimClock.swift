import Foundation

/// Where a simulated radio reads the time: elapsed time since the simulation started.
/// Injected so tests move time by hand instead of sleeping.
public protocol SimClock: Sendable {
    var elapsed: Duration { get }
}

/// Real time, for `meshport sim`.
public struct SystemSimClock: SimClock {
    private let start = ContinuousClock.now
    public init() {}
    public var elapsed: Duration { ContinuousClock.now - start }
}

/// Time that moves only when a test says so.
public final class ManualSimClock: SimClock, @unchecked Sendable {
    private let lock = NSLock()
    private var now: Duration = .zero

    public init() {}

    public var elapsed: Duration { lock.withLock { now } }

    public func advance(by d: Duration) { lock.withLock { now += d } }
}

extension SimClock {
    /// Sleeps until `due` on this clock, or a quarter second at most, so that events scheduled
    /// meanwhile are not missed for long; false once the task is cancelled (shutting down).
    func sleep(until due: Duration?) async -> Bool {
        let idle = Duration.milliseconds(250)
        let wait = due.map { $0 - elapsed } ?? idle
        do {
            try await Task.sleep(for: min(max(wait, .milliseconds(1)), idle))
            return !Task.isCancelled
        } catch {
            return false
        }
    }
}

extension Duration {
    /// Whole milliseconds, the unit the simulation schedules in.
    var milliseconds: UInt64 {
        let c = components
        guard c.seconds >= 0 else { return 0 }
        return UInt64(c.seconds) * 1000 + UInt64(c.attoseconds / 1_000_000_000_000_000)
    }
}
