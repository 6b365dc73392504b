/// The six feature bytes of a Pairing Request or Response (Core Vol 3 Part H 3.5.1, 3.5.2),
/// in the order they are sent.
public struct PairingFeatures: Equatable, Sendable {
    public var ioCapability: IO
    public var oobDataPresent: Bool
    public var authReq: AuthReq
    /// 7...16 bytes.
    public var maxKeySize: UInt8
    /// Keys the initiator (central) will distribute.
    public var initiatorKeys: KeyDistribution
    /// Keys the responder (peripheral) will distribute.
    public var responderKeys: KeyDistribution

    public init(ioCapability: IO, oobDataPresent: Bool = false, authReq: AuthReq, maxKeySize: UInt8 = 16,
                initiatorKeys: KeyDistribution, responderKeys: KeyDistribution)
    {
        self.ioCapability = ioCapability
        self.oobDataPresent = oobDataPresent
        self.authReq = authReq
        self.maxKeySize = maxKeySize
        self.initiatorKeys = initiatorKeys
        self.responderKeys = responderKeys
    }

    /// The six bytes as sent (after the command code).
    public var bytes: [UInt8] {
        [ioCapability.rawValue, oobDataPresent ? 1 : 0, authReq.rawValue, maxKeySize, initiatorKeys.rawValue, responderKeys.rawValue]
    }

    /// IOcap for f6: IO capability, OOB flag, AuthReq (least significant byte first).
    public var ioCap: [UInt8] { Array(bytes[0..<3]) }

    /// Decodes the six bytes; `code` names the PDU in errors.
    init(_ body: [UInt8], code: UInt8) throws(SMPPDUError) {
        guard let io = IO(rawValue: body[0]) else {
            throw SMPPDUError(code: code, problem: .reservedValue(field: "IO capability", value: body[0]))
        }
        guard body[1] <= 1 else { throw SMPPDUError(code: code, problem: .reservedValue(field: "OOB data flag", value: body[1])) }
        self.init(ioCapability: io, oobDataPresent: body[1] == 1, authReq: AuthReq(rawValue: body[2]), maxKeySize: body[3],
                  initiatorKeys: KeyDistribution(rawValue: body[4]), responderKeys: KeyDistribution(rawValue: body[5]))
    }
}

extension PairingFeatures {
    /// IO capabilities (Core Vol 3 Part H 3.5.1, Table 3.4).
    public enum IO: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case displayOnly = 0x00
        case displayYesNo = 0x01
        case keyboardOnly = 0x02
        case noInputNoOutput = 0x03
        case keyboardDisplay = 0x04

        public var description: String {
            switch self {
            case .displayOnly: "DisplayOnly"
            case .displayYesNo: "DisplayYesNo"
            case .keyboardOnly: "KeyboardOnly"
            case .noInputNoOutput: "NoInputNoOutput"
            case .keyboardDisplay: "KeyboardDisplay"
            }
        }
    }

    /// The AuthReq field (Core Vol 3 Part H 3.5.1, Figure 3.3). Reserved bits are kept as received.
    public struct AuthReq: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bonding_Flags 0b01: keep the keys. (0b00 is No Bonding; 0b10 and 0b11 are reserved.)
        public static let bonding = AuthReq(rawValue: 0x01)
        /// Man-in-the-middle protection requested.
        public static let mitm = AuthReq(rawValue: 0x04)
        /// LE Secure Connections supported.
        public static let secureConnections = AuthReq(rawValue: 0x08)
        /// Keypress notifications during passkey entry.
        public static let keypress = AuthReq(rawValue: 0x10)
        /// h7 supported for cross-transport key derivation.
        public static let ct2 = AuthReq(rawValue: 0x20)
    }

    /// Initiator/Responder Key Distribution bits (Core Vol 3 Part H 3.6.1).
    public struct KeyDistribution: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// LTK, EDIV and Rand (legacy pairing only; LE Secure Connections derives the LTK).
        public static let encKey = KeyDistribution(rawValue: 0x01)
        /// IRK and identity address.
        public static let idKey = KeyDistribution(rawValue: 0x02)
        /// CSRK for signed writes.
        public static let signKey = KeyDistribution(rawValue: 0x04)
        /// BR/EDR link key derivation.
        public static let linkKey = KeyDistribution(rawValue: 0x08)
    }
}
