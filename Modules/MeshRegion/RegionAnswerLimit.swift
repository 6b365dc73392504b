import Synchronization

/// A bound on how long a batch waits for the server's answers. A connection can hang with no
/// error at all: a server or a NAT that vanished without closing it, a peer that stopped
/// reading, a frozen server that accepted the connection. Past the limit `expired` runs (the
/// store closes the connection, which fails what waits on it) and the caller is answered at
/// once, whether or not the work ends afterwards: a write that ends later is harmless, writes
/// being idempotent (RegionWrites.swift); what a late success returns goes to `late` (a
/// connection made too late is closed).
enum RegionAnswerLimit {
    struct Expired: Error {}

    static func run<T: Sendable>(_ limit: Duration, expired: @escaping @Sendable () -> Void = {}, late: @escaping @Sendable (T) -> Void = { _ in },
                                 _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation, limit: limit, expired: expired, late: late, work: work)
        }
    }

    /// The work against the timer: the first to finish answers, and the other is cancelled.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var tasks: [Task<Void, Never>] = []
        }
        private let state = Mutex(State())

        func start(_ continuation: CheckedContinuation<T, any Error>, limit: Duration, expired: @escaping @Sendable () -> Void,
                   late: @escaping @Sendable (T) -> Void, work: @escaping @Sendable () async throws -> T) {
            state.withLock { $0.continuation = continuation }
            let worker = Task {
                let result: Result<T, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                if !self.answer(result, before: nil), case .success(let value) = result { late(value) }
            }
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }   // the work answered first
                self.answer(.failure(Expired()), before: expired)
            }
            let answered = state.withLock { state in
                state.tasks = [worker, timer]
                return state.continuation == nil
            }
            if answered { worker.cancel(); timer.cancel() }
        }

        /// Resumes the caller unless it was answered already (then false); `before` runs first when it answers.
        @discardableResult
        private func answer(_ result: Result<T, any Error>, before: (@Sendable () -> Void)?) -> Bool {
            let (continuation, tasks) = state.withLock { state in
                defer { state.continuation = nil }
                return (state.continuation, state.tasks)
            }
            guard let continuation else { return false }
            before?()
            for task in tasks { task.cancel() }
            continuation.resume(with: result)
            return true
        }
    }
}
