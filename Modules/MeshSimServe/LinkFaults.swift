import Foundation
import MeshSim

/// A `FaultPlan` at work on one stream link. The serving thread asks it about received
/// frames, the serving thread and the radio's pushes about written ones, so the plan sits
/// behind a lock.
public final class LinkFaults: @unchecked Sendable {
    private let lock = NSLock()
    private var plan: FaultPlan
    let delay: Duration
    /// Writes go through a `DelayedOutput`: to be late, or held during a stall.
    let queuesWrites: Bool

    public init(_ plan: FaultPlan) {
        self.plan = plan
        delay = plan.delay
        queuesWrites = delay > .zero || plan.faults.stallAtFrame != nil
    }

    func received() -> FaultPlan.Reception { lock.withLock { plan.received() } }

    func write(_ framed: [UInt8]) -> [UInt8] { lock.withLock { plan.write(framed) } }
}

/// Writes byte runs in order, each no sooner than `delay` after it was queued; what is
/// queued during a stall waits for its end. One thread per link, ended by `close`.
final class DelayedOutput: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(due: ContinuousClock.Instant, bytes: [UInt8])] = []
    private var heldUntil = ContinuousClock.now
    private var writing = false
    private var closed = false
    private let delay: Duration

    /// `sink` writes to the link. A failed write is not remembered: the reading side sees a
    /// closed link, and a pty master fails writes while no app has the port open.
    init(delay: Duration, sink: @escaping @Sendable ([UInt8]) -> Void) {
        self.delay = delay
        Thread { [self] in run(sink) }.start()
    }

    /// False once the output has been closed.
    func enqueue(_ bytes: [UInt8]) -> Bool {
        condition.withLock {
            guard !closed else { return false }
            // Due times never decrease (fixed delay, monotonic clock), so the queue stays in order.
            queue.append((max(ContinuousClock.now, heldUntil) + delay, bytes))
            condition.broadcast()
            return true
        }
    }

    /// Nothing queued from now on is written before `end` (plus the delay).
    func hold(until end: ContinuousClock.Instant) { condition.withLock { heldUntil = max(heldUntil, end) } }

    /// Waits until everything queued has been written, or the output is closed.
    func flush() {
        condition.withLock {
            while !closed && (writing || !queue.isEmpty) { condition.wait() }
        }
    }

    /// Drops what is still queued and ends the thread.
    func close() {
        condition.withLock {
            closed = true
            queue.removeAll()
            condition.broadcast()
        }
    }

    private func run(_ sink: ([UInt8]) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            guard let head = queue.first else { condition.wait(); continue }
            let wait = head.due - ContinuousClock.now
            if wait > .zero {
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait.seconds))
                continue
            }
            queue.removeFirst()
            writing = true
            condition.unlock()
            sink(head.bytes)
            condition.lock()
            writing = false
            condition.broadcast()
        }
    }
}

extension FrameWriter {
    /// A stall: blocks the reading thread for `duration` (or until `stopped`) while nothing
    /// queued meanwhile, pushes included, is written; the link stays open.
    func stall(for duration: Duration, stopped: () -> Bool) {
        let end = ContinuousClock.now + duration
        output?.hold(until: end)
        // In slices, so a peer that is closed does not wait out a long stall.
        while !stopped() {
            let left = end - ContinuousClock.now
            if left <= .zero { return }
            Thread.sleep(forTimeInterval: min(0.05, left.seconds))
        }
    }

    /// Waits until delayed writes are out.
    func flush() { output?.flush() }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
