/// SMP commands on L2CAP channel 6 (Core Vol 3 Part H 3.5, 3.6). Multi-byte values are kept
/// as sent: least significant byte first.
public enum SMPPDU: Equatable, Sendable {
    case pairingRequest(PairingFeatures)
    case pairingResponse(PairingFeatures)
    case pairingConfirm([UInt8])
    case pairingRandom([UInt8])
    case pairingFailed(SMPFailure)
    case encryptionInformation(ltk: [UInt8])
    case centralIdentification(ediv: UInt16, rand: UInt64)
    case identityInformation(irk: [UInt8])
    case identityAddressInformation(BDAddress)
    case signingInformation(csrk: [UInt8])
    case securityRequest(authReq: UInt8)
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    case dhKeyCheck([UInt8])
    case keypressNotification(UInt8)

    public enum Code {
        public static let pairingRequest: UInt8 = 0x01
        public static let pairingResponse: UInt8 = 0x02
        public static let pairingConfirm: UInt8 = 0x03
        public static let pairingRandom: UInt8 = 0x04
        public static let pairingFailed: UInt8 = 0x05
        public static let encryptionInformation: UInt8 = 0x06
        public static let centralIdentification: UInt8 = 0x07
        public static let identityInformation: UInt8 = 0x08
        public static let identityAddressInformation: UInt8 = 0x09
        public static let signingInformation: UInt8 = 0x0A
        public static let securityRequest: UInt8 = 0x0B
        public static let pairingPublicKey: UInt8 = 0x0C
        public static let dhKeyCheck: UInt8 = 0x0D
        public static let keypressNotification: UInt8 = 0x0E
    }

    public var bytes: [UInt8] {
        switch self {
        case let .pairingRequest(f): return [Code.pairingRequest] + f.bytes
        case let .pairingResponse(f): return [Code.pairingResponse] + f.bytes
        case let .pairingConfirm(v): return [Code.pairingConfirm] + v
        case let .pairingRandom(v): return [Code.pairingRandom] + v
        case let .pairingFailed(reason): return [Code.pairingFailed, reason.rawValue]
        case let .encryptionInformation(ltk): return [Code.encryptionInformation] + ltk
        case let .centralIdentification(ediv, rand):
            var p = [Code.centralIdentification]
            p.appendLE(ediv)
            p.appendLE(rand, bytes: 8)
            return p
        case let .identityInformation(irk): return [Code.identityInformation] + irk
        case let .identityAddressInformation(a): return [Code.identityAddressInformation, a.kind.rawValue] + a.littleEndian
        case let .signingInformation(csrk): return [Code.signingInformation] + csrk
        case let .securityRequest(auth): return [Code.securityRequest, auth]
        case let .pairingPublicKey(x, y): return [Code.pairingPublicKey] + x + y
        case let .dhKeyCheck(v): return [Code.dhKeyCheck] + v
        case let .keypressNotification(t): return [Code.keypressNotification, t]
        }
    }

    /// Decodes a PDU; a wrong length or an unknown code is a typed error naming it.
    public init(_ bytes: [UInt8]) throws(SMPError) {
        guard let code = bytes.first else { throw SMPError.malformed("an empty SMP PDU") }
        let body = Array(bytes.dropFirst())
        func need(_ n: Int, _ name: String) throws(SMPError) {
            guard body.count == n else { throw SMPError.malformed("\(name) of \(body.count + 1) bytes (it has \(n + 1))") }
        }
        switch code {
        case Code.pairingRequest, Code.pairingResponse:
            try need(6, code == Code.pairingRequest ? "Pairing Request" : "Pairing Response")
            let f = PairingFeatures(body)
            self = code == Code.pairingRequest ? .pairingRequest(f) : .pairingResponse(f)
        case Code.pairingConfirm: try need(16, "Pairing Confirm"); self = .pairingConfirm(body)
        case Code.pairingRandom: try need(16, "Pairing Random"); self = .pairingRandom(body)
        case Code.pairingFailed: try need(1, "Pairing Failed"); self = .pairingFailed(SMPFailure(rawValue: body[0]))
        case Code.encryptionInformation: try need(16, "Encryption Information"); self = .encryptionInformation(ltk: body)
        case Code.centralIdentification:
            try need(10, "Central Identification")
            let rand = body[2...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self = .centralIdentification(ediv: UInt16(body[0]) | UInt16(body[1]) << 8, rand: rand)
        case Code.identityInformation: try need(16, "Identity Information"); self = .identityInformation(irk: body)
        case Code.identityAddressInformation:
            try need(7, "Identity Address Information")
            self = .identityAddressInformation(BDAddress(littleEndian: body[1...], kind: body[0] == 0 ? .public : .random))
        case Code.signingInformation: try need(16, "Signing Information"); self = .signingInformation(csrk: body)
        case Code.securityRequest: try need(1, "Security Request"); self = .securityRequest(authReq: body[0])
        case Code.pairingPublicKey: try need(64, "Pairing Public Key"); self = .pairingPublicKey(x: Array(body[0..<32]), y: Array(body[32...]))
        case Code.dhKeyCheck: try need(16, "Pairing DHKey Check"); self = .dhKeyCheck(body)
        case Code.keypressNotification: try need(1, "Keypress Notification"); self = .keypressNotification(body[0])
        default: throw SMPError.malformed("unknown SMP code 0x\(String(code, radix: 16))")
        }
    }
}

/// The six feature bytes of a Pairing Request or Response.
public struct PairingFeatures: Equatable, Sendable {
    public var ioCapability: UInt8
    public var oobDataPresent: Bool
    public var authReq: UInt8
    public var maxKeySize: UInt8
    public var initiatorKeys: UInt8
    public var responderKeys: UInt8

    public init(ioCapability: UInt8, oobDataPresent: Bool = false, authReq: UInt8, maxKeySize: UInt8 = 16, initiatorKeys: UInt8, responderKeys: UInt8) {
        self.ioCapability = ioCapability
        self.oobDataPresent = oobDataPresent
        self.authReq = authReq
        self.maxKeySize = maxKeySize
        self.initiatorKeys = initiatorKeys
        self.responderKeys = responderKeys
    }

    init(_ b: [UInt8]) {
        self.init(ioCapability: b[0], oobDataPresent: b[1] != 0, authReq: b[2], maxKeySize: b[3], initiatorKeys: b[4], responderKeys: b[5])
    }

    var bytes: [UInt8] { [ioCapability, oobDataPresent ? 1 : 0, authReq, maxKeySize, initiatorKeys, responderKeys] }

    /// IOcap for f6: AuthReq, OOB flag, IO capability (most significant first).
    var ioCap: [UInt8] { [authReq, oobDataPresent ? 1 : 0, ioCapability] }

    public enum IO {
        public static let displayOnly: UInt8 = 0x00
        public static let displayYesNo: UInt8 = 0x01
        public static let keyboardOnly: UInt8 = 0x02
        public static let noInputNoOutput: UInt8 = 0x03
        public static let keyboardDisplay: UInt8 = 0x04
    }

    public enum Auth {
        public static let bonding: UInt8 = 0x01
        public static let mitm: UInt8 = 0x04
        public static let secureConnections: UInt8 = 0x08
        public static let keypress: UInt8 = 0x10
    }

    public enum Keys {
        public static let encKey: UInt8 = 0x01
        public static let idKey: UInt8 = 0x02
        public static let signKey: UInt8 = 0x04
    }
}

/// Pairing Failed reasons (Core Vol 3 Part H 3.5.5).
public struct SMPFailure: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryFailed = SMPFailure(rawValue: 0x01)
    public static let authenticationRequirements = SMPFailure(rawValue: 0x03)
    public static let confirmValueFailed = SMPFailure(rawValue: 0x04)
    public static let pairingNotSupported = SMPFailure(rawValue: 0x05)
    public static let encryptionKeySize = SMPFailure(rawValue: 0x06)
    public static let commandNotSupported = SMPFailure(rawValue: 0x07)
    public static let unspecifiedReason = SMPFailure(rawValue: 0x08)
    public static let repeatedAttempts = SMPFailure(rawValue: 0x09)
    public static let invalidParameters = SMPFailure(rawValue: 0x0A)
    public static let dhKeyCheckFailed = SMPFailure(rawValue: 0x0B)

    public var description: String {
        let names: [UInt8: String] = [
            0x01: "Passkey Entry Failed", 0x02: "OOB Not Available", 0x03: "Authentication Requirements",
            0x04: "Confirm Value Failed", 0x05: "Pairing Not Supported", 0x06: "Encryption Key Size",
            0x07: "Command Not Supported", 0x08: "Unspecified Reason", 0x09: "Repeated Attempts",
            0x0A: "Invalid Parameters", 0x0B: "DHKey Check Failed", 0x0C: "Numeric Comparison Failed",
            0x0D: "BR/EDR Pairing In Progress", 0x0E: "Cross-transport Key Derivation Not Allowed", 0x0F: "Key Rejected",
        ]
        return "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true) + " (" + (names[rawValue] ?? "reserved") + ")"
    }
}
