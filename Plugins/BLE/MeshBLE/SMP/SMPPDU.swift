/// SMP commands on L2CAP channel 6 (Core Vol 3 Part H 3.3–3.6), typed. Keys, nonces, confirm
/// and check values and public key coordinates are kept as sent: least significant byte first.
public enum SMPPDU: Equatable, Sendable {
    case pairingRequest(PairingFeatures)
    case pairingResponse(PairingFeatures)
    /// 16 bytes.
    case pairingConfirm([UInt8])
    /// 16 bytes.
    case pairingRandom([UInt8])
    case pairingFailed(SMPFailure)
    /// The LTK (16 bytes).
    case encryptionInformation(ltk: [UInt8])
    case centralIdentification(ediv: UInt16, rand: UInt64)
    /// The IRK (16 bytes).
    case identityInformation(irk: [UInt8])
    /// The identity address (public or random static) and its type.
    case identityAddressInformation(BDAddress)
    /// The CSRK (16 bytes).
    case signingInformation(csrk: [UInt8])
    case securityRequest(PairingFeatures.AuthReq)
    /// X and Y, 32 bytes each.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    /// 16 bytes.
    case dhKeyCheck([UInt8])
    case keypressNotification(SMPKeypress)

    /// Command codes (Core Vol 3 Part H 3.3, Table 3.3).
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

    /// The specification's name for a command code, nil when the code is not one.
    public static func name(of code: UInt8) -> String? {
        switch code {
        case Code.pairingRequest: "Pairing Request"
        case Code.pairingResponse: "Pairing Response"
        case Code.pairingConfirm: "Pairing Confirm"
        case Code.pairingRandom: "Pairing Random"
        case Code.pairingFailed: "Pairing Failed"
        case Code.encryptionInformation: "Encryption Information"
        case Code.centralIdentification: "Central Identification"
        case Code.identityInformation: "Identity Information"
        case Code.identityAddressInformation: "Identity Address Information"
        case Code.signingInformation: "Signing Information"
        case Code.securityRequest: "Security Request"
        case Code.pairingPublicKey: "Pairing Public Key"
        case Code.dhKeyCheck: "Pairing DHKey Check"
        case Code.keypressNotification: "Keypress Notification"
        default: nil
        }
    }

    /// Parameter bytes after the code, for every command (each has a fixed length).
    static func parameterLength(of code: UInt8) -> Int? {
        switch code {
        case Code.pairingRequest, Code.pairingResponse: 6
        case Code.pairingConfirm, Code.pairingRandom, Code.encryptionInformation, Code.identityInformation,
             Code.signingInformation, Code.dhKeyCheck: 16
        case Code.pairingFailed, Code.securityRequest, Code.keypressNotification: 1
        case Code.centralIdentification: 10
        case Code.identityAddressInformation: 7
        case Code.pairingPublicKey: 64
        default: nil
        }
    }

    public var code: UInt8 {
        switch self {
        case .pairingRequest: Code.pairingRequest
        case .pairingResponse: Code.pairingResponse
        case .pairingConfirm: Code.pairingConfirm
        case .pairingRandom: Code.pairingRandom
        case .pairingFailed: Code.pairingFailed
        case .encryptionInformation: Code.encryptionInformation
        case .centralIdentification: Code.centralIdentification
        case .identityInformation: Code.identityInformation
        case .identityAddressInformation: Code.identityAddressInformation
        case .signingInformation: Code.signingInformation
        case .securityRequest: Code.securityRequest
        case .pairingPublicKey: Code.pairingPublicKey
        case .dhKeyCheck: Code.dhKeyCheck
        case .keypressNotification: Code.keypressNotification
        }
    }

    /// The PDU as sent on channel 6, code first.
    public var bytes: [UInt8] {
        var p = [code]
        switch self {
        case let .pairingRequest(f), let .pairingResponse(f): p += f.bytes
        case let .pairingConfirm(v), let .pairingRandom(v), let .dhKeyCheck(v): p += v
        case let .pairingFailed(reason): p.append(reason.rawValue)
        case let .encryptionInformation(key), let .identityInformation(key), let .signingInformation(key): p += key
        case let .centralIdentification(ediv, rand):
            p.appendLE(ediv)
            p.appendLE(rand, bytes: 8)
        case let .identityAddressInformation(address): p += [address.kind.rawValue] + address.littleEndian
        case let .securityRequest(auth): p.append(auth.rawValue)
        case let .pairingPublicKey(x, y): p += x + y
        case let .keypressNotification(kind): p.append(kind.rawValue)
        }
        return p
    }

    /// Decodes one PDU. An empty PDU, an unknown code, a wrong length or a reserved value is an
    /// `SMPPDUError` naming the PDU and the problem.
    public init(_ bytes: [UInt8]) throws(SMPPDUError) {
        guard let code = bytes.first else { throw SMPPDUError(code: nil, problem: .empty) }
        guard let length = Self.parameterLength(of: code) else { throw SMPPDUError(code: code, problem: .unknownCode) }
        let body = Array(bytes.dropFirst())
        guard body.count == length else {
            throw SMPPDUError(code: code, problem: .wrongLength(expected: length + 1, actual: bytes.count))
        }
        switch code {
        case Code.pairingRequest: self = .pairingRequest(try PairingFeatures(body, code: code))
        case Code.pairingResponse: self = .pairingResponse(try PairingFeatures(body, code: code))
        case Code.pairingConfirm: self = .pairingConfirm(body)
        case Code.pairingRandom: self = .pairingRandom(body)
        case Code.pairingFailed: self = .pairingFailed(SMPFailure(rawValue: body[0]))
        case Code.encryptionInformation: self = .encryptionInformation(ltk: body)
        case Code.centralIdentification:
            let rand = body[2...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self = .centralIdentification(ediv: UInt16(body[0]) | UInt16(body[1]) << 8, rand: rand)
        case Code.identityInformation: self = .identityInformation(irk: body)
        case Code.identityAddressInformation:
            guard let kind = BDAddress.Kind(rawValue: body[0]) else {
                throw SMPPDUError(code: code, problem: .reservedValue(field: "address type", value: body[0]))
            }
            self = .identityAddressInformation(BDAddress(littleEndian: body[1...], kind: kind))
        case Code.signingInformation: self = .signingInformation(csrk: body)
        case Code.securityRequest: self = .securityRequest(PairingFeatures.AuthReq(rawValue: body[0]))
        case Code.pairingPublicKey: self = .pairingPublicKey(x: Array(body[0..<32]), y: Array(body[32...]))
        case Code.dhKeyCheck: self = .dhKeyCheck(body)
        default:
            guard let kind = SMPKeypress(rawValue: body[0]) else {
                throw SMPPDUError(code: code, problem: .reservedValue(field: "notification type", value: body[0]))
            }
            self = .keypressNotification(kind)
        }
    }
}

/// Keypress Notification types (Core Vol 3 Part H 3.5.8).
public enum SMPKeypress: UInt8, Sendable, CaseIterable {
    case entryStarted = 0, digitEntered = 1, digitErased = 2, cleared = 3, entryCompleted = 4
}

/// Bytes on channel 6 that are not a valid SMP PDU.
public struct SMPPDUError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case empty
        case unknownCode
        /// Lengths of the whole PDU, code included.
        case wrongLength(expected: Int, actual: Int)
        case reservedValue(field: String, value: UInt8)
    }

    /// The command code, nil for an empty PDU.
    public let code: UInt8?
    public let problem: Problem

    public init(code: UInt8?, problem: Problem) {
        self.code = code
        self.problem = problem
    }

    /// The Pairing Failed reason this answers: Command Not Supported for an unknown code,
    /// Invalid Parameters otherwise.
    public var reason: SMPFailure { problem == .unknownCode ? .commandNotSupported : .invalidParameters }

    public var description: String {
        let name = code.flatMap(SMPPDU.name(of:)).map { "SMP \($0)" } ?? "SMP PDU"
        switch problem {
        case .empty: return "an empty SMP PDU (no command code)"
        case .unknownCode: return "unknown SMP command code \(smpHex(code ?? 0))"
        case let .wrongLength(expected, actual): return "\(name) of \(actual) bytes: it has \(expected)"
        case let .reservedValue(field, value): return "\(name): \(field) \(smpHex(value)) is reserved"
        }
    }
}
