import MeshCodec

/// Why a session command failed: each case names the command and the link.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No answer within the command's time limit.
    case noAnswer(command: String, url: String, seconds: Double)
    /// The radio answered with an error code.
    case refused(command: String, url: String, RadioError)
    /// The radio answered with a frame this command does not expect.
    case unexpected(command: String, url: String, got: String)
    /// The link closed or failed before the answer came.
    case linkClosed(command: String, url: String, reason: String)
    /// An answer that does not decode.
    case undecodable(command: String, url: String, CodecError)

    public var description: String {
        switch self {
        case let .noAnswer(command, link, seconds):
            "no answer to \(command) within \(seconds.formatted()) s on \(link): is the radio running companion firmware, and is no other app connected?"
        case let .refused(command, link, error):
            "\(command) refused by the radio on \(link): \(error)"
        case let .unexpected(command, link, got):
            "\(command) on \(link) was answered with \(got)"
        case let .linkClosed(command, link, reason):
            "\(command) on \(link): the link closed before the answer (\(reason))"
        case let .undecodable(command, link, error):
            "\(command) on \(link): undecodable answer: \(error)"
        }
    }
}

private extension Double {
    func formatted() -> String { self == rounded() ? String(Int(self)) : String(self) }
}
