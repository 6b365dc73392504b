import Foundation
import MeshCodec

/// Why a request to a repeater, room server or sensor failed. Each case names the node
/// (its contact name and key prefix) and says what to do.
public enum RemoteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The node answered the login with LOGIN_FAIL.
    case wrongPassword(node: String)
    /// No reply within `seconds` (most servers stay silent on a wrong password, too).
    case noAnswer(request: String, node: String, seconds: Double, flood: Bool)
    /// The radio has no contact with this key.
    case unknownContact(PublicKey, url: String)
    /// The reply came but cannot be read.
    case undecodableReply(request: String, node: String, reason: String)
    /// The link went down while the reply was awaited.
    case linkLost(request: String, node: String, reason: String)
    /// `login(_:)` without a password, and none is remembered for the node.
    case noRememberedPassword(node: String)
    /// `remember: true` on a RemoteNodes made without a password vault.
    case noPasswordVault

    public var description: String {
        switch self {
        case let .wrongPassword(node):
            "\(node) refused the login: wrong password"
        case let .noAnswer(request, node, seconds, flood):
            "no answer to the \(request) from \(node) within \(seconds.formattedSeconds) s"
                + (flood ? " (sent flood: no known path)" : "")
                + (request == "login"
                    ? "; the node may be out of reach, or the password may be wrong (most servers do not answer a wrong one)"
                    : "; the node may be out of reach, or it answers only after a login (`meshport login`)")
        case let .unknownContact(key, link):
            "\(key.prefix(6).hex) is not a contact of the radio on \(link): add it, or wait for its advert"
        case let .undecodableReply(request, node, reason):
            "the \(request) reply from \(node) cannot be read: \(reason)"
        case let .linkLost(request, node, reason):
            "the link went down while waiting for the \(request) reply from \(node) (\(reason)); log in again once it is back"
        case let .noRememberedPassword(node):
            "no password is remembered for \(node): log in with one (and remember it to reuse it)"
        case .noPasswordVault:
            "cannot remember the password: no password file was given"
        }
    }
}

extension Double {
    var formattedSeconds: String { self == rounded() ? String(Int(self)) : String(format: "%.1f", self) }
}
