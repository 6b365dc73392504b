import Synchronization
import Testing
@testable import MeshServices

/// The process's one thread of command time limits (Modules/MeshServices/Support/Deadlines.swift):
/// a limit runs when due and not before, a cancelled one never, an earlier one set after later
/// ones is not kept waiting behind them, and cancelled limits do not pile up.
@Suite(.timeLimit(.minutes(1))) struct DeadlinesTests {
    /// Names of the limits that ran, in the order they ran.
    final class Log: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }

        /// Waits (polling, up to 20 s) until `count` limits have run.
        func wait(for count: Int) async throws {
            for _ in 0..<2_000 where all.count < count { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    @Test func limitsRunWhenDueInTheirOrderAndCancelledOnesNever() async throws {
        let log = Log()
        let deadlines = Deadlines()
        _ = deadlines.schedule(after: .milliseconds(300)) { log.add("third") }
        let cancelled = deadlines.schedule(after: .milliseconds(100)) { log.add("cancelled") }
        _ = deadlines.schedule(after: .milliseconds(200)) { log.add("second") }
        _ = deadlines.schedule(after: .milliseconds(50)) { log.add("first") }
        deadlines.cancel(cancelled)
        try await log.wait(for: 3)
        #expect(log.all == ["first", "second", "third"])
        // The cancelled one's time is long past: it did not run late either.
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.all == ["first", "second", "third"])
    }

    @Test func anEarlierLimitIsNotKeptBehindLaterOnes() async throws {
        let log = Log()
        let deadlines = Deadlines()
        let late = deadlines.schedule(after: .seconds(60)) { log.add("late") }
        // Time for the thread to start and go to sleep until the 60 s limit: the earlier one must wake it.
        try await Task.sleep(for: .milliseconds(200))
        _ = deadlines.schedule(after: .milliseconds(20)) { log.add("early") }
        try await log.wait(for: 1)
        #expect(log.all == ["early"])
        deadlines.cancel(late)
    }

    @Test func aLimitIsNotRunBeforeItsTime() async throws {
        let log = Log()
        let clock = ContinuousClock()
        let start = clock.now
        let ranAt = Mutex<ContinuousClock.Instant?>(nil)
        _ = Deadlines().schedule(after: .milliseconds(150)) {
            ranAt.withLock { $0 = clock.now }
            log.add("due")
        }
        try await log.wait(for: 1)
        let elapsed = try #require(ranAt.withLock { $0 }) - start
        #expect(elapsed >= .milliseconds(150))
    }

    @Test func cancelledLimitsDoNotPileUp() async throws {
        let deadlines = Deadlines()
        let tokens = (0..<10_000).map { _ in deadlines.schedule(after: .seconds(3_600)) {} }
        #expect(deadlines.pending == 10_000)
        for token in tokens { deadlines.cancel(token) }
        #expect(deadlines.pending == 0)
        #expect(deadlines.kept <= 64)
    }

    @Test func durationsAreClamped() {
        #expect(Duration.seconds(-5).clampedNanoseconds == 0)
        #expect(Duration.milliseconds(1_500).clampedNanoseconds == 1_500_000_000)
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == 100 * 365 * 86_400 * 1_000_000_000)
    }
}
