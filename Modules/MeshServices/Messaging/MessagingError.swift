import MeshCodec
import MeshStore

/// Why sending a message failed, naming the conversation, the step and the link. A message
/// that was saved before the failure is left `failed` with `description` as its reason.
public enum MessagingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to send; nothing was saved.
    case emptyText(conversation: String)
    /// The text does not fit the firmware's MAX_TEXT_LEN; nothing was saved.
    case textTooLong(conversation: String, bytes: Int, limit: Int)
    /// "<our name>: <text>" does not fit a channel message; nothing was saved.
    case channelTextTooLong(channel: UInt8, prefixBytes: Int, textBytes: Int, limit: Int)
    /// The channel slot is free: the radio would encrypt with the all-zero key. Nothing was saved.
    case emptyChannel(channel: UInt8, url: String)
    /// The store refused a step (an unknown contact, a failed write).
    case store(step: String, StoreError)
    /// A command failed (refused, no answer, link lost); `step` says which attempt.
    case command(step: String, SessionError)
    /// A step failed in a way that is neither the store's nor the session's (a frame that
    /// cannot be encoded).
    case unexpected(step: String, reason: String)
    /// Every attempt went unanswered.
    case noAck(contact: KeyPrefix, attempts: Int, direct: Int, flood: Int)
    /// The task sending it was cancelled.
    case cancelled(step: String)

    public var description: String {
        switch self {
        case let .emptyText(conversation):
            "nothing to send to \(conversation): the text is empty"
        case let .textTooLong(conversation, bytes, limit):
            "message to \(conversation) is \(bytes) bytes of UTF-8; at most \(limit) fit (MAX_TEXT_LEN), \(bytes - limit) too many"
        case let .channelTextTooLong(channel, prefix, text, limit):
            "message to channel \(channel) is \(prefix + text) bytes with the \(prefix)-byte \"name: \" prefix; at most \(limit) fit (MAX_TEXT_LEN), so the text may have \(max(0, limit - prefix)) bytes, not \(text)"
        case let .emptyChannel(channel, link):
            "channel slot \(channel) on \(link) is empty: set the channel up before sending to it"
        case let .store(step, error):
            "\(step): \(error)"
        case let .command(step, error):
            "\(step): \(error)"
        case let .unexpected(step, reason):
            "\(step): \(reason)"
        case let .noAck(contact, attempts, direct, flood):
            "no ACK from \(contact.hex) after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(direct) direct, \(flood) flood)"
        case let .cancelled(step):
            "cancelled during \(step)"
        }
    }

    /// A session call's failure during `step`.
    static func command(_ step: String, _ error: any Error) -> MessagingError {
        if let e = error as? SessionError { return .command(step: step, e) }
        return .unexpected(step: step, reason: "\(error)")
    }
}
