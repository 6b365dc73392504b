/// Why pairing failed, said so a user knows what to do.
public enum SMPError: Error, Equatable, CustomStringConvertible {
    /// The radio rejected our confirm value: the passkey typed does not match its PIN.
    case wrongPasskey(peer: BDAddress)
    /// The radio's confirm value did not match its random value: it used another passkey.
    case peerConfirmMismatch(peer: BDAddress)
    /// The radio can only pair without a passkey (Just Works), which allows a man in the middle.
    case justWorksRefused(peer: BDAddress)
    /// The radio ended pairing with a reason.
    case peerFailed(peer: BDAddress, SMPFailure)
    /// The radio's DHKey check did not verify.
    case dhKeyCheckFailed(peer: BDAddress)
    /// The radio's public key is not a point on P-256.
    case invalidPublicKey(peer: BDAddress)
    /// The radio offered a key shorter than 7 bytes.
    case keyTooShort(peer: BDAddress, size: UInt8)
    /// The radio sent a PDU that does not belong at this step.
    case unexpected(peer: BDAddress, code: UInt8, step: String)
    /// A PDU that cannot be decoded.
    case malformed(String)
    /// Encryption with the new key failed.
    case encryptionFailed(peer: BDAddress, status: UInt8)
    /// The passkey is outside 000000-999999.
    case invalidPasskey(UInt32)

    public var description: String {
        switch self {
        case let .wrongPasskey(peer):
            return "\(peer) refused the PIN: check the PIN shown on the radio or set in its app (default 123456) and give it with ?pin="
        case let .peerConfirmMismatch(peer):
            return "\(peer) answered with a different PIN: check the PIN shown on the radio or set in its app (default 123456)"
        case let .justWorksRefused(peer):
            return "\(peer) offers only pairing without a PIN (Just Works), which Meshport refuses: a MeshCore radio pairs with its PIN; check its BLE settings"
        case let .peerFailed(peer, reason):
            if reason == .confirmValueFailed || reason == .passkeyEntryFailed {
                return "\(peer) refused the PIN (\(reason)): check the PIN shown on the radio or set in its app (default 123456)"
            }
            if reason == .repeatedAttempts { return "\(peer) refuses pairing for now after repeated attempts (\(reason)): wait a minute and try again" }
            return "\(peer) ended pairing: \(reason)"
        case let .dhKeyCheckFailed(peer): return "\(peer) failed the DHKey check: pairing aborted (a wrong PIN or an attacker in the middle)"
        case let .invalidPublicKey(peer): return "\(peer) sent a public key that is not on the P-256 curve: pairing aborted"
        case let .keyTooShort(peer, size): return "\(peer) offered a \(size)-byte key; at least 7 are required"
        case let .unexpected(peer, code, step): return "\(peer) sent SMP code 0x\(String(code, radix: 16)) while \(step): pairing aborted"
        case let .malformed(what): return "malformed SMP PDU: \(what)"
        case let .encryptionFailed(peer, status): return "encrypting the link to \(peer) with the new key failed: \(HCIStatus.describe(status))"
        case let .invalidPasskey(value): return "\(value) is not a 6-digit PIN"
        }
    }
}
