import Synchronization

/// First come, first served: one holder at a time, the rest waiting in order. A session
/// holds it for each command and its answer; remote requests hold it for the request and the
/// wait for its reply, because the radio tracks one at a time (Docs/protocol.md §7.5).
/// A lock, not an actor: taking and giving back a turn runs on the caller's own actor, with
/// no hop to the gate and back for every command.
final class TurnGate: Sendable {
    private struct Turns {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []

        /// Takes the turn when no one holds it.
        mutating func take() -> Bool {
            if busy { return false }
            busy = true
            return true
        }
    }

    private let turns = Mutex(Turns())

    func run<T: Sendable>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire(isolation: isolated (any Actor)? = #isolation) async {
        if turns.withLock({ $0.take() }) { return }
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            // Taken again under the lock: the holder may have left since the first look.
            let free = turns.withLock { t in
                if t.take() { return true }
                t.waiting.append(turn)
                return false
            }
            if free { turn.resume() }
        }
    }

    private func release() {
        let next = turns.withLock { t -> CheckedContinuation<Void, Never>? in
            if t.waiting.isEmpty {
                t.busy = false
                return nil
            }
            return t.waiting.removeFirst()
        }
        next?.resume()
    }
}
