import MeshCodec

/// Why the radio did not sign (CMD_SIGN_START/DATA/FINISH, Docs/protocol.md §4).
public enum SigningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The firmware does not know the signing commands (before companion v1.4.0).
    case firmwareCannotSign(url: String)
    /// More data than the radio's signing buffer holds.
    case tooLong(bytes: Int, maximum: Int, url: String)
    /// The radio lost the signing in progress (another client started or finished one).
    case interrupted(url: String, step: String)

    public var description: String {
        switch self {
        case let .firmwareCannotSign(url):
            "this radio's firmware cannot sign (needs companion firmware v1.4.0 or later) on \(url): use password auth"
        case let .tooLong(bytes, maximum, url):
            "\(bytes) bytes are too many to sign on \(url): the radio signs at most \(maximum)"
        case let .interrupted(url, step):
            "the radio on \(url) lost the signing at \(step) (did another client sign at the same time?): try again"
        }
    }
}
