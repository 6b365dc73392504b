/// The reason in a Pairing Failed PDU (Core Vol 3 Part H 3.5.5, Table 3.7). Any byte is
/// representable: values this list does not name print as reserved.
public struct SMPFailure: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryFailed = SMPFailure(rawValue: 0x01)
    public static let oobNotAvailable = SMPFailure(rawValue: 0x02)
    public static let authenticationRequirements = SMPFailure(rawValue: 0x03)
    public static let confirmValueFailed = SMPFailure(rawValue: 0x04)
    public static let pairingNotSupported = SMPFailure(rawValue: 0x05)
    public static let encryptionKeySize = SMPFailure(rawValue: 0x06)
    public static let commandNotSupported = SMPFailure(rawValue: 0x07)
    public static let unspecifiedReason = SMPFailure(rawValue: 0x08)
    public static let repeatedAttempts = SMPFailure(rawValue: 0x09)
    public static let invalidParameters = SMPFailure(rawValue: 0x0A)
    public static let dhKeyCheckFailed = SMPFailure(rawValue: 0x0B)
    public static let numericComparisonFailed = SMPFailure(rawValue: 0x0C)
    public static let brEdrPairingInProgress = SMPFailure(rawValue: 0x0D)
    public static let crossTransportKeyNotAllowed = SMPFailure(rawValue: 0x0E)
    public static let keyRejected = SMPFailure(rawValue: 0x0F)

    /// The specification's name, or nil for a reserved value.
    public var name: String? {
        switch rawValue {
        case 0x01: "Passkey Entry Failed"
        case 0x02: "OOB Not Available"
        case 0x03: "Authentication Requirements"
        case 0x04: "Confirm Value Failed"
        case 0x05: "Pairing Not Supported"
        case 0x06: "Encryption Key Size"
        case 0x07: "Command Not Supported"
        case 0x08: "Unspecified Reason"
        case 0x09: "Repeated Attempts"
        case 0x0A: "Invalid Parameters"
        case 0x0B: "DHKey Check Failed"
        case 0x0C: "Numeric Comparison Failed"
        case 0x0D: "BR/EDR Pairing In Progress"
        case 0x0E: "Cross-transport Key Derivation/Generation Not Allowed"
        case 0x0F: "Key Rejected"
        default: nil
        }
    }

    /// "0x04 (Confirm Value Failed)".
    public var description: String { smpHex(rawValue) + " (" + (name ?? "reserved") + ")" }
}

/// "0x0B": one byte as the specification writes codes.
func smpHex(_ byte: UInt8) -> String {
    "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
}
