/// Where a client's connection to its broker stands; every change goes out on
/// `MQTTClient.stateUpdates()`.
public enum MQTTConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// Created, `start()` not called yet.
    case idle
    /// Connection attempt number `attempt` (1 after start, counting up until one succeeds).
    case connecting(attempt: Int)
    case connected
    /// Not connected because of `error`; the next attempt starts after `retryIn`.
    case waiting(error: MQTTError, retryIn: Duration)
    /// `close()` was called.
    case closed

    public var description: String {
        switch self {
        case .idle: "not started"
        case .connecting(let attempt): "connecting (attempt \(attempt))"
        case .connected: "connected"
        case .waiting(let error, let retryIn): "\(error) Next attempt in \(retryIn)."
        case .closed: "closed"
        }
    }
}

/// How the outgoing backlog stands: what waits, what went out, what was given up.
public struct MQTTBacklogStats: Sendable, Equatable {
    /// Messages waiting for the broker's acknowledgement (or to be sent), in flight included.
    public var queued: Int
    /// Messages sent and not yet acknowledged.
    public var inFlight: Int
    /// Messages the broker acknowledged (QoS 1) or that were written to it (QoS 0).
    public var delivered: Int
    /// Oldest messages dropped because the backlog was full, or unreadable at start.
    public var dropped: Int
    /// The most messages the backlog keeps.
    public var capacity: Int
    /// Incoming messages dropped because the reader of `messages` fell behind.
    public var incomingDropped: Int
}
