/// Why pairing failed, said so a user knows what happened and what to do.
public enum SMPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The radio refused our confirm value (it sent Pairing Failed 0x04): the PIN typed is
    /// not the radio's.
    case wrongPasskey(peer: BDAddress)
    /// The radio's confirm value did not match its random value (we sent Pairing Failed 0x04):
    /// it used another PIN.
    case peerConfirmMismatch(peer: BDAddress)
    /// With these IO capabilities pairing would be Just Works (no PIN, no protection against a
    /// man in the middle); we sent Pairing Failed 0x03.
    case justWorksRefused(peer: BDAddress, peerIO: PairingFeatures.IO)
    /// The radio would compare a number on both screens, which needs a person confirming here.
    case numericComparisonUnsupported(peer: BDAddress)
    /// The radio wants out-of-band data, which this host has none of.
    case outOfBandUnsupported(peer: BDAddress)
    /// The radio offers only legacy pairing and the configuration allows only LE Secure Connections.
    case legacyRefused(peer: BDAddress)
    /// The radio ended pairing with this reason.
    case peerFailed(peer: BDAddress, SMPFailure)
    /// The radio's DHKey check value did not verify.
    case dhKeyCheckFailed(peer: BDAddress)
    /// The radio's public key is not a point on P-256, or is our own key sent back.
    case invalidPublicKey(peer: BDAddress)
    /// The radio's maximum key size is outside 7...16 bytes.
    case keySizeRefused(peer: BDAddress, size: UInt8)
    /// The radio sent a PDU that does not belong at this step.
    case unexpected(peer: BDAddress, code: UInt8, step: String)
    /// The radio sent bytes that are not a valid SMP PDU.
    case malformed(peer: BDAddress, SMPPDUError)
    /// The controller could not encrypt the link with the new key.
    case encryptionFailed(peer: BDAddress, status: UInt8)
    /// The passkey is outside 000000...999999.
    case invalidPasskey(UInt32)
    /// Some other part of the configuration cannot work (said what).
    case invalidConfiguration(String)
    /// A function of the Security Manager refused its input; a bug in this host, not the radio.
    case internalFailure(String)

    public var description: String {
        let pin = "check the PIN shown on the radio or set in its settings (default 123456)"
        switch self {
        case let .wrongPasskey(peer):
            return "\(peer) refused the PIN: \(pin), then connect again"
        case let .peerConfirmMismatch(peer):
            return "\(peer) paired with a different PIN (its confirm value did not match): the PIN is probably wrong; \(pin)"
        case let .justWorksRefused(peer, io):
            return "\(peer) can only pair without a PIN (Just Works: it reports IO capability \(io)), which would let anyone in radio range"
                + " listen in; Meshport refuses it. Enable PIN pairing in the radio's BLE settings"
        case let .numericComparisonUnsupported(peer):
            return "\(peer) wants to compare a number shown on both devices, which Meshport cannot confirm: configure this host's IO"
                + " capability as KeyboardOnly so the radio's PIN is used"
        case let .outOfBandUnsupported(peer):
            return "\(peer) wants out-of-band pairing data, which Meshport does not have: pair with the radio's PIN instead"
        case let .legacyRefused(peer):
            return "\(peer) offers only legacy pairing, and only LE Secure Connections is allowed here: allow legacy pairing or update the radio's firmware"
        case let .peerFailed(peer, reason):
            switch reason {
            case .confirmValueFailed, .passkeyEntryFailed:
                return "\(peer) refused the PIN (\(reason)): \(pin), then connect again"
            case .repeatedAttempts:
                return "\(peer) refuses pairing for now after repeated attempts (\(reason)): wait a minute, \(pin), and try again"
            case .authenticationRequirements:
                return "\(peer) refused the security this host asked for (\(reason)): it may require LE Secure Connections or bonding; check its BLE settings"
            case .pairingNotSupported:
                return "\(peer) does not accept pairing (\(reason)): check that BLE pairing is enabled on the radio"
            case .encryptionKeySize:
                return "\(peer) refused the key size (\(reason)): it needs a shorter key than this host allows"
            default:
                return "\(peer) ended pairing (\(reason)): try again; if it keeps failing, remove the pairing on the radio and here (meshport ble forget)"
            }
        case let .dhKeyCheckFailed(peer):
            return "\(peer) failed the DHKey check, so pairing stopped: \(pin); if it is right, something between here and the radio tampered with the pairing"
        case let .invalidPublicKey(peer):
            return "\(peer) sent a public key that is not valid on P-256 (or this host's own key): pairing stopped to protect the keys; try again, and suspect interference if it repeats"
        case let .keySizeRefused(peer, size):
            return "\(peer) offered a \(size)-byte encryption key; 7 to 16 bytes are required: pairing stopped"
        case let .unexpected(peer, code, step):
            let name = SMPPDU.name(of: code) ?? "command \(smpHex(code))"
            return "\(peer) sent SMP \(name) while \(step): pairing stopped; try again"
        case let .malformed(peer, problem):
            return "\(peer) sent a malformed SMP PDU (\(problem)): pairing stopped; try again"
        case let .encryptionFailed(peer, status):
            let why = status == HCIStatus.success ? "the controller left encryption off" : HCIStatus.describe(status)
            return "encrypting the link to \(peer) with the new key failed: \(why); try again"
        case let .invalidPasskey(value):
            return "\(value) is not a PIN: a PIN has at most 6 digits (000000 to 999999)"
        case let .invalidConfiguration(what):
            return "cannot pair: \(what)"
        case let .internalFailure(what):
            return "pairing stopped by an internal error (\(what)); please report it"
        }
    }
}
