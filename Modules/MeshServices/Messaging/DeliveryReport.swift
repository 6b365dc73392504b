import MeshCodec
import MeshStore

/// One SEND_TXT_MSG of a DM and the radio's SENT answer.
public struct SendAttempt: Hashable, Sendable {
    /// From 1; the frame's attempt field carries `number - 1`.
    public var number: Int
    public var ackCode: AckCode
    /// How the radio sent it (SENT's route flag), not how it was asked to.
    public var flood: Bool
    public var suggestedTimeoutMs: UInt32

    public init(number: Int, ackCode: AckCode, flood: Bool, suggestedTimeoutMs: UInt32) {
        self.number = number
        self.ackCode = ackCode
        self.flood = flood
        self.suggestedTimeoutMs = suggestedTimeoutMs
    }
}

/// What became of a DM: its stored row, every attempt, and the outcome.
public struct DeliveryReport: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Sent, and tracking goes on in the background (`send(_:to:wait: false)`).
        case inFlight
        /// Acknowledged; `attempt` is the attempt whose ACK came first (maybe an earlier one).
        case delivered(attempt: Int, roundTripMs: UInt32)
        /// Settled as failed; the stored message keeps `error.description` as its reason.
        case failed(MessagingError)
    }

    /// As stored when the report was made.
    public var message: StoredMessage
    public var attempts: [SendAttempt]
    /// A RESET_PATH was sent before the first flood attempt.
    public var pathReset: Bool
    public var outcome: Outcome
}
