/// Why a gateway message or token could not be made.
public enum GatewayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The region code is not one topic level of letters and digits.
    case badRegion(String)
    /// A LOG_RX_DATA push whose raw bytes are not an air packet.
    case undecodablePacket(raw: String, reason: String)
    /// The signer returned something that is not a 64-byte Ed25519 signature.
    case badSignature(count: Int)
    /// A token lifetime that is not positive.
    case badLifetime(seconds: Int)
    /// The broker host a token is for is empty.
    case missingAudience
    /// A renewal share outside (0, 1].
    case badRenewalShare(Double)
    /// A message JSONEncoder would not write.
    case unencodable(message: String, reason: String)

    public var description: String {
        switch self {
        case let .badRegion(code):
            "the region code \"\(code)\" is not usable in a topic: give 1 to 16 letters or digits, such as AMS"
        case let .undecodablePacket(raw, reason):
            "a heard packet (\(raw)) is not a valid air packet: \(reason)"
        case let .badSignature(count):
            "the radio returned a \(count)-byte signature where Ed25519 gives 64 bytes"
        case let .badLifetime(seconds):
            "a token lifetime of \(seconds) s is not usable: give a positive number of seconds"
        case .missingAudience:
            "a community token needs the broker's host name as its audience"
        case let .badRenewalShare(share):
            "a token is renewed after a share of its lifetime between 0 and 1, not \(share)"
        case let .unencodable(message, reason):
            "the \(message) message could not be written as JSON: \(reason)"
        }
    }
}
