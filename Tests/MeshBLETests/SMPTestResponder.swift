import Foundation
@testable import MeshBLE
import Testing

/// A radio's side of pairing (the responder), written here from `SMPCrypto` and `SMPPDU`
/// only: MeshCore-like DisplayOnly with a fixed passkey by default, LE Secure Connections or
/// legacy passkey entry, distributing its keys once the link is encrypted. Knobs make it
/// misbehave the ways the tests need.
struct SMPTestResponder {
    var passkey: UInt32 = 123_456
    var io = PairingFeatures.IO.displayOnly
    var secureConnections = true
    var oob = false
    var maxKeySize: UInt8 = 16
    /// False: skip checking the central's confirm values, so the central's own check is what
    /// catches a wrong passkey.
    var checksConfirm = true
    /// Refuse pairing that would be Just Works, as MeshCore firmware (and the Bumble world) do.
    var refusesJustWorks = true
    /// Corrupt the DHKey check value this side sends.
    var corruptDHKeyCheck = false
    /// Keys it is willing to distribute.
    var distributes: PairingFeatures.KeyDistribution = [.encKey, .idKey]
    let address: BDAddress
    let central: BDAddress
    let keyPair: SMPKeyPair

    private(set) var request: [UInt8] = [], response: [UInt8] = []
    private(set) var ltk: [UInt8] = []
    private(set) var receivedKeys: [SMPPDU] = []
    private var peerX: [UInt8] = [], dhKey: [UInt8] = [], round = 0
    private var peerConfirm: [UInt8] = [], nonce: [UInt8] = [], peerNonce: [UInt8] = []
    private var agreedResponderKeys: PairingFeatures.KeyDistribution = []

    let distributedLTK: [UInt8] = (0..<16).map { UInt8($0 + 0x40) }
    let distributedEDIV: UInt16 = 0x1234
    let distributedRand: UInt64 = 0x0102_0304_0506_0708
    let irk: [UInt8] = [UInt8](repeating: 0, count: 16)  // what the Bumble world sends

    init(address: BDAddress, central: BDAddress, keyPair: SMPKeyPair = SMPKeyPair()) {
        self.address = address
        self.central = central
        self.keyPair = keyPair
    }

    private func random(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255) } }
    /// The passkey as TK / f6's r, least significant byte first.
    private var block: [UInt8] { [0, 8, 16, 24].map { UInt8((passkey >> $0) & 0xFF) } + [UInt8](repeating: 0, count: 12) }
    private func bit(_ i: Int) -> UInt8 { 0x80 | UInt8((passkey >> UInt32(i)) & 1) }
    private var failedConfirm: [[UInt8]] { [SMPPDU.pairingFailed(.confirmValueFailed).bytes] }

    /// The PDUs it answers one PDU from the central with.
    mutating func receive(_ bytes: [UInt8]) throws -> [[UInt8]] {
        switch try SMPPDU(bytes) {
        case let .pairingRequest(f):
            request = bytes
            secureConnections = secureConnections && f.authReq.contains(.secureConnections)
            let auth: PairingFeatures.AuthReq = secureConnections ? [.bonding, .mitm, .secureConnections] : [.bonding, .mitm]
            let features = PairingFeatures(ioCapability: io, oobDataPresent: oob, authReq: auth, maxKeySize: maxKeySize,
                                           initiatorKeys: f.initiatorKeys.intersection([.encKey, .idKey]),
                                           responderKeys: f.responderKeys.intersection(distributes))
            agreedResponderKeys = features.responderKeys
            if refusesJustWorks,
               SMPAssociation.select(initiator: f, responder: features, secureConnections: secureConnections) == .justWorks
            {
                return [SMPPDU.pairingFailed(.authenticationRequirements).bytes]
            }
            response = SMPPDU.pairingResponse(features).bytes
            return [response]
        case let .pairingPublicKey(x, y):
            peerX = x
            dhKey = try keyPair.dhKey(peerX: x, peerY: y)
            return [SMPPDU.pairingPublicKey(x: keyPair.x, y: keyPair.y).bytes]
        case let .pairingConfirm(value):
            peerConfirm = value
            nonce = random(16)
            if secureConnections { return [SMPPDU.pairingConfirm(try SMPCrypto.f4(keyPair.x, peerX, nonce, bit(round))).bytes] }
            return [SMPPDU.pairingConfirm(try SMPCrypto.c1(block, nonce, preq: request, pres: response, initiator: central, responder: address)).bytes]
        case let .pairingRandom(value):
            peerNonce = value
            if secureConnections {
                if checksConfirm, try SMPCrypto.f4(peerX, keyPair.x, peerNonce, bit(round)) != peerConfirm { return failedConfirm }
                round += 1
            } else {
                let expected = try SMPCrypto.c1(block, peerNonce, preq: request, pres: response, initiator: central, responder: address)
                if checksConfirm, expected != peerConfirm { return failedConfirm }
                ltk = try SMPCrypto.s1(block, nonce, peerNonce)
            }
            return [SMPPDU.pairingRandom(nonce).bytes]
        case let .dhKeyCheck(value):
            let keys = try SMPCrypto.f5(dhKey, peerNonce, nonce, central, address)
            let ioA = Array(request[1...3]), ioB = Array(response[1...3])
            guard try SMPCrypto.f6(keys.macKey, peerNonce, nonce, block, ioA, central, address) == value else {
                return [SMPPDU.pairingFailed(.dhKeyCheckFailed).bytes]
            }
            ltk = keys.ltk
            var check = try SMPCrypto.f6(keys.macKey, nonce, peerNonce, block, ioB, address, central)
            if corruptDHKeyCheck { check[0] ^= 1 }
            return [SMPPDU.dhKeyCheck(check).bytes]
        case let pdu:
            receivedKeys.append(pdu)
            return []
        }
    }

    /// The LTK (or STK) shortened to the negotiated key size, as the link is encrypted with.
    var maskedKey: [UInt8] {
        let size = Int(min(maxKeySize, 16))
        return Array(ltk.prefix(size)) + [UInt8](repeating: 0, count: 16 - size)
    }

    /// What it sends once the link is encrypted, in the specification's order.
    func distribution() -> [[UInt8]] {
        var out: [[UInt8]] = []
        if !secureConnections && agreedResponderKeys.contains(.encKey) {
            out.append(SMPPDU.encryptionInformation(ltk: distributedLTK).bytes)
            out.append(SMPPDU.centralIdentification(ediv: distributedEDIV, rand: distributedRand).bytes)
        }
        if agreedResponderKeys.contains(.idKey) {
            out.append(SMPPDU.identityInformation(irk: irk).bytes)
            out.append(SMPPDU.identityAddressInformation(address).bytes)
        }
        return out
    }
}

/// A deterministic random source (SplitMix64), so a pairing run is repeatable.
final class SMPTestRandom: @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    func bytes(_ count: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    var source: SMPInitiator.RandomSource { { [self] count in bytes(count) } }
}

/// Sample data typed as the specification and RFC 4493 write it.
enum SMPSample {
    /// Most significant byte first (spaces allowed) to the least significant byte first order
    /// of the MeshBLE API.
    static func le(_ hex: String) -> [UInt8] { msb(hex).reversed() }

    /// Hex in written order.
    static func msb(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { i in
            guard i + 2 <= digits.count, let byte = UInt8(String(digits[i..<i + 2]), radix: 16) else {
                Issue.record("bad hex in a test: \(hex)")
                return 0
            }
            return byte
        }
    }
}
