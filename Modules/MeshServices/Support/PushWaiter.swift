import MeshCodec

/// How a wait for a push ended.
enum PushOutcome<T: Sendable>: Sendable {
    case value(T)
    case timedOut
    /// The session stopped being ready (link lost, closed) before the push came.
    case linkLost(String)
}

/// Waits for the push that answers a command. The subscription must be made before the
/// command is sent, so a push that arrives with (or before) the command's answer is not missed.
enum PushWaiter {
    static func first<T: Sendable>(in events: AsyncStream<SessionEvent>, within limit: Duration,
                                   _ pick: @escaping @Sendable (Push) -> T?) async -> PushOutcome<T> {
        await withTaskGroup(of: PushOutcome<T>?.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case let .push(push):
                        if let value = pick(push) { return .value(value) }
                    case let .state(state) where state == .disconnected || state == .reconnecting:
                        return .linkLost("the session is \(state)")
                    default:
                        continue
                    }
                }
                // Cancelled (the other child won) or the hub finished.
                return Task.isCancelled ? nil : .linkLost("the session's event stream ended")
            }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                } catch {
                    return nil   // cancelled: the push came first
                }
                return .timedOut
            }
            var outcome: PushOutcome<T> = .timedOut
            for await result in group {
                if let result {
                    outcome = result
                    break
                }
            }
            group.cancelAll()
            return outcome
        }
    }
}
