import MeshCodec

/// What a session reports to front ends, in order.
public enum SessionEvent: Hashable, Sendable {
    case state(RadioSession.State)
    /// A push from the radio (MSG_WAITING, SEND_CONFIRMED, adverts, LOG_RX_DATA, ...).
    case push(Push)
    /// Initialization progress: the step under way.
    case syncing(SyncStep)
    /// The link was lost: attempt `attempt` to reopen it starts after `delay`.
    case reconnecting(attempt: Int, delay: Duration)
    case reconnectFailed(attempt: Int, reason: String)
    /// The link is back and the session initialized again.
    case reconnected(attempt: Int)
    /// A frame that is neither a push nor the answer to a command in flight.
    case stray(String)
    /// A message that answers a SYNC_NEXT_MESSAGE after that command timed out (a slow link or
    /// a stalled machine): the radio no longer holds it, so it must be kept now.
    case lateMessage(Response)
    /// Something the radio did that the session worked around, in a sentence for people.
    case warning(String)
}

/// The steps of initialization (Docs/protocol.md §7.1), in order.
public enum SyncStep: Hashable, Sendable {
    case selfInfo, deviceInfo, clock, contacts(received: Int, total: Int), channels, messages(drained: Int)
}
