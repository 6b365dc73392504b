import Crypto
@testable import MeshBLE
import Testing

/// A radio's side of pairing, written here from the same functions: DisplayOnly with a fixed
/// passkey, LE Secure Connections or legacy, distributing its keys after encryption.
struct TestResponder {
    var passkey: UInt32 = 123_456
    var secureConnections = true
    var io = PairingFeatures.IO.displayOnly
    var address = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)
    let central: BDAddress
    let key = P256.KeyAgreement.PrivateKey()
    var request: [UInt8] = [], response: [UInt8] = []
    var peerX: [UInt8] = [], dhKey: [UInt8] = [], round = 0
    var peerConfirm: [UInt8] = [], nonce: [UInt8] = [], peerNonce: [UInt8] = []
    var ltk: [UInt8] = []
    let distributedLTK: [UInt8] = (0..<16).map { UInt8($0 + 0x40) }
    var receivedKeys: [SMPPDU] = []
    /// The OOB flag byte sent in the Pairing Response (values above 1 are reserved, yet hashed).
    var oobByte: UInt8 = 0

    init(central: BDAddress) { self.central = central }

    private var ownX: [UInt8] { Array(Array(key.publicKey.rawRepresentation)[0..<32]) }
    private func r(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255) } }
    private var block: [UInt8] { [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8((passkey >> $0) & 0xFF) } }
    private func bit(_ i: Int) -> UInt8 { 0x80 | UInt8((passkey >> UInt32(i)) & 1) }
    private var a: [UInt8] { [central.kind.rawValue] + central.bytes }
    private var b: [UInt8] { [address.kind.rawValue] + address.bytes }

    mutating func receive(_ bytes: [UInt8]) throws -> [[UInt8]] {
        switch try SMPPDU(bytes) {
        case let .pairingRequest(f):
            request = bytes
            let auth: UInt8 = secureConnections && f.authReq & 0x08 != 0 ? 0x0D : 0x05
            secureConnections = auth == 0x0D
            response = SMPPDU.pairingResponse(PairingFeatures(ioCapability: io, authReq: auth, initiatorKeys: f.initiatorKeys & 0x03, responderKeys: f.responderKeys & 0x03)).bytes
            response[2] = oobByte
            return [response]
        case let .pairingPublicKey(x, y):
            peerX = x.reversed()
            let peerKey = try P256.KeyAgreement.PublicKey(rawRepresentation: peerX + y.reversed())
            dhKey = try key.sharedSecretFromKeyAgreement(with: peerKey).withUnsafeBytes { Array($0) }
            let raw = Array(key.publicKey.rawRepresentation)
            return [SMPPDU.pairingPublicKey(x: ownX.reversed(), y: Array(raw[32...]).reversed()).bytes]
        case let .pairingConfirm(value):
            peerConfirm = value.reversed()
            nonce = r(16)
            if secureConnections { return [SMPPDU.pairingConfirm(SMPCrypto.f4(ownX, peerX, nonce, bit(round)).reversed()).bytes] }
            return [SMPPDU.pairingConfirm(SMPCrypto.c1(block, nonce, preq: request, pres: response, iat: central.kind.rawValue, rat: address.kind.rawValue,
                                                       ia: central.bytes, ra: address.bytes).reversed()).bytes]
        case let .pairingRandom(value):
            peerNonce = value.reversed()
            if secureConnections {
                guard SMPCrypto.f4(peerX, ownX, peerNonce, bit(round)) == peerConfirm else { return [[0x05, 0x04]] }
                round += 1
            } else {
                let expected = SMPCrypto.c1(block, peerNonce, preq: request, pres: response, iat: central.kind.rawValue, rat: address.kind.rawValue,
                                            ia: central.bytes, ra: address.bytes)
                guard expected == peerConfirm else { return [[0x05, 0x04]] }
                ltk = SMPCrypto.s1(block, nonce, peerNonce)
            }
            return [SMPPDU.pairingRandom(nonce.reversed()).bytes]
        case let .dhKeyCheck(value):
            let (macKey, key) = SMPCrypto.f5(dhKey, peerNonce, nonce, a, b)
            let ioA = Array(request[1...3].reversed()), ioB = Array(response[1...3].reversed())
            guard SMPCrypto.f6(macKey, peerNonce, nonce, block, [ioA[0], ioA[1], ioA[2]], a, b) == value.reversed() else { return [[0x05, 0x0B]] }
            ltk = key
            return [SMPPDU.dhKeyCheck(SMPCrypto.f6(macKey, nonce, peerNonce, block, ioB, b, a).reversed()).bytes]
        case let pdu:
            receivedKeys.append(pdu)
            return []
        }
    }

    /// What the radio sends once the link is encrypted.
    func distribution() -> [[UInt8]] {
        var out: [[UInt8]] = []
        if !secureConnections {
            out.append(SMPPDU.encryptionInformation(ltk: distributedLTK).bytes)
            out.append(SMPPDU.centralIdentification(ediv: 0x1234, rand: 0x0102_0304_0506_0708).bytes)
        }
        out.append(SMPPDU.identityInformation(irk: [UInt8](repeating: 0, count: 16)).bytes)
        out.append(SMPPDU.identityAddressInformation(address).bytes)
        return out
    }
}

@Suite struct SMPInitiatorTests {
    let central = BDAddress(littleEndian: [2, 0, 0, 0, 0, 0xE1], kind: .random)
    let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)

    enum Outcome { case bond(SMPBond, encryptedWith: [UInt8]), failure(SMPError, sent: [[UInt8]]) }

    /// Runs initiator and responder against each other until one side finishes.
    private func pair(_ config: SMPConfig, _ responder: inout TestResponder) throws -> Outcome {
        var smp = SMPInitiator(config: config, local: central, peer: radio)
        var pending = smp.start()
        var encryptedWith: [UInt8] = []
        var sent: [[UInt8]] = []
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case let .send(pdu):
                sent.append(pdu)
                for reply in try responder.receive(pdu) { pending += smp.handle(pdu: reply) }
            case let .startEncryption(ltk, _, _):
                encryptedWith = ltk
                pending += smp.encryptionChanged(status: 0, enabled: true)
                for key in responder.distribution() { pending += smp.handle(pdu: key) }
            case let .completed(bond):
                return .bond(bond, encryptedWith: encryptedWith)
            case let .failed(error):
                return .failure(error, sent: sent)
            }
        }
        Issue.record("pairing stalled")
        return .failure(.malformed("stalled"), sent: sent)
    }

    @Test func secureConnectionsPasskey() throws {
        var responder = TestResponder(central: central)
        var config = SMPConfig(passkey: 123_456)
        config.localIdentity = ([UInt8](repeating: 7, count: 16), central)
        guard case let .bond(bond, key) = try pair(config, &responder) else { Issue.record("no bond"); return }
        #expect(bond.secureConnections && bond.authenticated && bond.keySize == 16)
        #expect(key == Array(responder.ltk.reversed()))
        #expect(bond.ltk == key && bond.ediv == 0 && bond.rand == 0)
        #expect(bond.peerIdentity == radio.description)
        // Our identity went to the radio; no EncKey in Secure Connections.
        #expect(responder.receivedKeys == [.identityInformation(irk: [UInt8](repeating: 7, count: 16)), .identityAddressInformation(central)])
    }

    @Test func legacyPasskeyWithKeysBothWays() throws {
        var responder = TestResponder(central: central)
        responder.secureConnections = false
        guard case let .bond(bond, key) = try pair(SMPConfig(passkey: 123_456), &responder) else { Issue.record("no bond"); return }
        #expect(!bond.secureConnections)
        #expect(key == Array(responder.ltk.reversed()))  // encrypted with the STK
        #expect(bond.ltk == responder.distributedLTK && bond.ediv == 0x1234 && bond.rand == 0x0102_0304_0506_0708)
        // The radio's own LTK, EDIV and Rand handed back (see SMPInitiator on why).
        #expect(responder.receivedKeys == [.encryptionInformation(ltk: responder.distributedLTK), .centralIdentification(ediv: 0x1234, rand: 0x0102_0304_0506_0708)])
    }

    /// c1 and f6 hash the Pairing Response as it came, not as it would be re-encoded.
    @Test(arguments: [true, false])
    func responseIsHashedAsReceived(secureConnections: Bool) throws {
        var responder = TestResponder(central: central)
        responder.secureConnections = secureConnections
        responder.oobByte = 0x02
        guard case .bond = try pair(SMPConfig(passkey: 123_456), &responder) else { Issue.record("no bond"); return }
    }

    @Test(arguments: [true, false])
    func wrongPasskeyIsCaughtOnBothPaths(secureConnections: Bool) throws {
        var responder = TestResponder(central: central)
        responder.secureConnections = secureConnections
        guard case let .failure(error, _) = try pair(SMPConfig(passkey: 111_111), &responder) else { Issue.record("paired"); return }
        // Either the radio refuses our confirm or we catch its: both say the PIN is wrong.
        #expect(error == .wrongPasskey(peer: radio) || error == .peerConfirmMismatch(peer: radio))
        #expect(error.description.contains("PIN"))
    }

    @Test func justWorksIsRefused() throws {
        var responder = TestResponder(central: central)
        responder.io = PairingFeatures.IO.noInputNoOutput
        guard case let .failure(error, sent) = try pair(SMPConfig(passkey: 123_456), &responder) else { Issue.record("paired"); return }
        #expect(error == .justWorksRefused(peer: radio))
        #expect(sent.last == [0x05, 0x03])
    }

    @Test func requestAsksForBondingMITMAndSecureConnections() {
        var smp = SMPInitiator(config: SMPConfig(passkey: 1), local: central, peer: radio)
        #expect(smp.start() == [.send([0x01, 0x02, 0x00, 0x0D, 0x10, 0x01, 0x03])])
    }

    @Test func peerFailureIsNamed() {
        var smp = SMPInitiator(config: SMPConfig(passkey: 1), local: central, peer: radio)
        _ = smp.start()
        #expect(smp.handle(pdu: [0x05, 0x09]) == [.failed(.peerFailed(peer: radio, .repeatedAttempts))])
        #expect(smp.isFinished)
        #expect(smp.handle(pdu: [0x02, 0, 0, 0x0D, 16, 0, 0]).isEmpty)
    }

    @Test func unexpectedAndMalformedPDUsAbort() {
        var a = SMPInitiator(config: SMPConfig(passkey: 1), local: central, peer: radio)
        _ = a.start()
        let confirm = a.handle(pdu: [0x03] + [UInt8](repeating: 0, count: 16))
        #expect(confirm.first == .send([0x05, 0x08]))
        var b = SMPInitiator(config: SMPConfig(passkey: 1), local: central, peer: radio)
        _ = b.start()
        #expect(b.handle(pdu: [0x02, 0, 0]).first == .send([0x05, 0x0A]))
        var c = SMPInitiator(config: SMPConfig(passkey: 1), local: central, peer: radio)
        _ = c.start()
        #expect(c.handle(pdu: [0x02, 0, 0, 0x0D, 6, 0, 0]).first == .send([0x05, 0x06]))  // key too short
    }

    @Test func invalidPublicKeyIsRefused() {
        var smp = SMPInitiator(config: SMPConfig(passkey: 1), local: central, peer: radio)
        _ = smp.start()
        _ = smp.handle(pdu: [0x02, 0, 0, 0x0D, 16, 0, 0])
        let actions = smp.handle(pdu: [0x0C] + [UInt8](repeating: 1, count: 64))
        #expect(actions.last == .failed(.invalidPublicKey(peer: radio)))
    }

    @Test func passkeyAboveSixDigitsIsRefused() {
        var smp = SMPInitiator(config: SMPConfig(passkey: 1_000_000), local: central, peer: radio)
        #expect(smp.start() == [.failed(.invalidPasskey(1_000_000))])
    }

    @Test func pduRoundTrips() throws {
        let pdus: [SMPPDU] = [
            .pairingRequest(PairingFeatures(ioCapability: 2, authReq: 0x0D, initiatorKeys: 3, responderKeys: 3)),
            .pairingConfirm([UInt8](repeating: 1, count: 16)), .pairingFailed(.dhKeyCheckFailed),
            .centralIdentification(ediv: 0xBEEF, rand: 0x1122_3344_5566_7788), .identityAddressInformation(radio),
            .securityRequest(authReq: 0x0D), .pairingPublicKey(x: [UInt8](repeating: 2, count: 32), y: [UInt8](repeating: 3, count: 32)),
            .keypressNotification(1),
        ]
        for pdu in pdus { #expect(try SMPPDU(pdu.bytes) == pdu) }
        #expect(SMPPDU.centralIdentification(ediv: 0xBEEF, rand: 0x1122_3344_5566_7788).bytes == [0x07, 0xEF, 0xBE, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        #expect(throws: SMPError.self) { try SMPPDU([0x0C, 1, 2]) }
        #expect(throws: SMPError.self) { try SMPPDU([0x42]) }
        #expect(throws: SMPError.self) { try SMPPDU([]) }
    }
}
