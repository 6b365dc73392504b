import MeshCodec

/// Commands the firmware answers with a push only: SEND_TELEMETRY_REQ for the radio's own
/// telemetry writes TELEMETRY_RESPONSE and no response frame (protocol.md §3, code 39).
enum PushAnsweredCommand {
    /// Sends `command` on `session` and returns what `pick` takes from the push that answers it.
    ///
    /// `RadioSession.exchange` waits for a response frame, so the command gets a short time
    /// limit of its own (`queueHold`) and its `noAnswer` is expected: that limit only bounds
    /// how long later commands queue behind it. Other failures (refused, link closed) throw.
    static func send<T: Sendable>(_ command: Command, on session: RadioSession, within limit: Duration,
                                  queueHold: Duration = .milliseconds(250), _ pick: @escaping @Sendable (Push) -> T?) async throws -> T {
        let events = session.subscribe()
        async let waited = PushWaiter.first(in: events, within: limit, pick)
        do {
            // A firmware that answers with a response frame as well: an error one would throw.
            _ = try await session.exchange(command, timeout: queueHold)
        } catch SessionError.noAnswer {
            // Expected: the answer is the push.
        }
        // Any other error leaves this scope, which cancels the wait.
        switch await waited {
        case let .value(value): return value
        case .timedOut: throw SessionError.noAnswer(command: command.name, link: session.url.text, seconds: limit.seconds)
        case let .linkLost(reason): throw SessionError.linkClosed(command: command.name, link: session.url.text, reason: reason)
        }
    }
}
