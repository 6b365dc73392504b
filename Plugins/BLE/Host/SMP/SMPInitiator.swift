import Crypto

/// What the connection must do for the Security Manager.
public enum SMPAction: Equatable, Sendable {
    /// Send this PDU on L2CAP channel 6.
    case send([UInt8])
    /// HCI_LE_Enable_Encryption with this key (least significant byte first), EDIV and Rand.
    case startEncryption(ltk: [UInt8], ediv: UInt16, rand: UInt64)
    case completed(SMPBond)
    case failed(SMPError)
}

/// How this side pairs.
public struct SMPConfig: Sendable {
    /// 0...999999, entered as the radio's PIN.
    public var passkey: UInt32
    /// KeyboardOnly: this side types the PIN the radio shows (never numeric comparison).
    public var ioCapability: UInt8 = PairingFeatures.IO.keyboardOnly
    public var bonding = true
    public var allowSecureConnections = true
    public var allowLegacy = true
    public var maxKeySize: UInt8 = 16
    /// This host's identity (IRK, address), sent when the radio accepts it.
    public var localIdentity: (irk: [UInt8], address: BDAddress)?

    public init(passkey: UInt32) { self.passkey = passkey }
}

/// The initiator (central) side of LE pairing with passkey entry, LE Secure Connections or
/// legacy, as a pure state machine: PDUs and encryption changes in, actions out. No I/O, no
/// clock (SMP's 30 s timeout belongs to the connection), randomness injectable for tests.
public struct SMPInitiator {
    public typealias Random = @Sendable (Int) -> [UInt8]

    enum Step: Equatable {
        case idle, features, publicKey, scConfirm(Int), scRandom(Int), dhKeyCheck
        case legacyConfirm, legacyRandom, encrypting, distribution, done, failed
    }

    private(set) var step = Step.idle
    private let config: SMPConfig
    private let local: BDAddress
    private let peer: BDAddress
    private let random: Random
    private let privateKey: P256.KeyAgreement.PrivateKey
    private var request = PairingFeatures(ioCapability: 0, authReq: 0, initiatorKeys: 0, responderKeys: 0)
    private var response = PairingFeatures(ioCapability: 0, authReq: 0, initiatorKeys: 0, responderKeys: 0)
    /// The Pairing Response exactly as received: c1 and f6 hash its bytes, reserved bits included.
    private var responsePDU: [UInt8] = []
    private var secureConnections = false
    private var keySize: UInt8 = 16
    // LE Secure Connections values, most significant byte first.
    private var ownX: [UInt8] = [], peerX: [UInt8] = [], dhKey: [UInt8] = []
    private var ownNonce: [UInt8] = [], peerNonce: [UInt8] = [], peerConfirm: [UInt8] = []
    private var macKey: [UInt8] = [], ltk: [UInt8] = []
    // Legacy.
    private var tk: [UInt8] = []
    // Keys distributed by the radio.
    private var expectedKeys: UInt8 = 0
    private var bond: SMPBond?

    public init(config: SMPConfig, local: BDAddress, peer: BDAddress,
                random: @escaping Random = { count in (0..<count).map { _ in UInt8.random(in: 0...255) } },
                privateKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()) {
        self.config = config
        self.local = local
        self.peer = peer
        self.random = random
        self.privateKey = privateKey
    }

    public var isFinished: Bool { step == .done || step == .failed }

    /// Sends the Pairing Request.
    public mutating func start() -> [SMPAction] {
        guard step == .idle else { return [] }
        guard config.passkey <= 999_999 else { return fail(.invalidPasskey(config.passkey), send: nil) }
        var auth = PairingFeatures.Auth.mitm
        if config.bonding { auth |= PairingFeatures.Auth.bonding }
        if config.allowSecureConnections { auth |= PairingFeatures.Auth.secureConnections }
        request = PairingFeatures(ioCapability: config.ioCapability, authReq: auth, maxKeySize: config.maxKeySize,
                                  initiatorKeys: config.bonding ? PairingFeatures.Keys.encKey | (config.localIdentity != nil ? PairingFeatures.Keys.idKey : 0) : 0,
                                  responderKeys: config.bonding ? PairingFeatures.Keys.encKey | PairingFeatures.Keys.idKey : 0)
        step = .features
        return [.send(SMPPDU.pairingRequest(request).bytes)]
    }

    /// One PDU from the radio.
    public mutating func handle(pdu bytes: [UInt8]) -> [SMPAction] {
        if isFinished { return [] }
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU(bytes)
        } catch {
            return fail(error, send: .invalidParameters)
        }
        if case let .pairingFailed(reason) = pdu {
            step = .failed
            return [.failed(reason == .confirmValueFailed ? .wrongPasskey(peer: peer) : .peerFailed(peer: peer, reason))]
        }
        switch (step, pdu) {
        case (_, .securityRequest), (_, .keypressNotification):
            return []  // already pairing; a keypress changes nothing for the side typing
        case let (.features, .pairingResponse(features)):
            responsePDU = bytes
            return featuresExchanged(features)
        case let (.publicKey, .pairingPublicKey(x, y)):
            return publicKeyReceived(x: x, y: y)
        case let (.scConfirm(round), .pairingConfirm(value)):
            peerConfirm = value.reversed()
            step = .scRandom(round)
            return [.send(SMPPDU.pairingRandom(ownNonce.reversed()).bytes)]
        case let (.scRandom(round), .pairingRandom(value)):
            return scRandomReceived(round: round, nonce: value.reversed())
        case let (.dhKeyCheck, .dhKeyCheck(value)):
            return dhKeyCheckReceived(value.reversed())
        case let (.legacyConfirm, .pairingConfirm(value)):
            peerConfirm = value.reversed()
            step = .legacyRandom
            return [.send(SMPPDU.pairingRandom(ownNonce.reversed()).bytes)]
        case let (.legacyRandom, .pairingRandom(value)):
            return legacyRandomReceived(value.reversed())
        case (.distribution, _):
            return keyReceived(pdu)
        default:
            return fail(.unexpected(peer: peer, code: bytes[0], step: "\(step)"), send: .unspecifiedReason)
        }
    }

    /// The link's Encryption Change (or Key Refresh) while pairing.
    public mutating func encryptionChanged(status: UInt8, enabled: Bool) -> [SMPAction] {
        guard step == .encrypting else { return [] }
        guard status == HCIStatus.success, enabled else {
            step = .failed
            return [.failed(.encryptionFailed(peer: peer, status: status))]
        }
        step = .distribution
        return keyReceived(nil)
    }

    // MARK: Steps

    private mutating func featuresExchanged(_ features: PairingFeatures) -> [SMPAction] {
        response = features
        keySize = min(request.maxKeySize, features.maxKeySize)
        guard keySize >= 7 else { return fail(.keyTooShort(peer: peer, size: features.maxKeySize), send: .encryptionKeySize) }
        // Passkey entry needs MITM on either side and an IO pair where someone can type.
        let mitm = (request.authReq | features.authReq) & PairingFeatures.Auth.mitm != 0
        guard mitm, features.ioCapability != PairingFeatures.IO.noInputNoOutput else {
            return fail(.justWorksRefused(peer: peer), send: .authenticationRequirements)
        }
        secureConnections = config.allowSecureConnections && features.authReq & PairingFeatures.Auth.secureConnections != 0
        if !secureConnections && !config.allowLegacy { return fail(.peerFailed(peer: peer, .authenticationRequirements), send: .authenticationRequirements) }
        if secureConnections {
            let raw = Array(privateKey.publicKey.rawRepresentation)
            ownX = Array(raw[0..<32])
            step = .publicKey
            return [.send(SMPPDU.pairingPublicKey(x: ownX.reversed(), y: Array(raw[32...]).reversed()).bytes)]
        }
        tk = passkeyBlock
        ownNonce = random(16)
        let confirm = SMPCrypto.c1(tk, ownNonce, preq: SMPPDU.pairingRequest(request).bytes, pres: responsePDU,
                                   iat: local.kind.rawValue, rat: peer.kind.rawValue, ia: local.bytes, ra: peer.bytes)
        step = .legacyConfirm
        return [.send(SMPPDU.pairingConfirm(confirm.reversed()).bytes)]
    }

    private mutating func publicKeyReceived(x: [UInt8], y: [UInt8]) -> [SMPAction] {
        peerX = x.reversed()
        let shared: [UInt8]
        do {
            let key = try P256.KeyAgreement.PublicKey(rawRepresentation: peerX + y.reversed())
            shared = try privateKey.sharedSecretFromKeyAgreement(with: key).withUnsafeBytes { Array($0) }
        } catch {
            return fail(.invalidPublicKey(peer: peer), send: .dhKeyCheckFailed)
        }
        dhKey = shared
        return scConfirm(round: 0)
    }

    /// Round `round` of 20: commit to bit `round` of the passkey.
    private mutating func scConfirm(round: Int) -> [SMPAction] {
        ownNonce = random(16)
        let confirm = SMPCrypto.f4(ownX, peerX, ownNonce, passkeyBit(round))
        step = .scConfirm(round)
        return [.send(SMPPDU.pairingConfirm(confirm.reversed()).bytes)]
    }

    private mutating func scRandomReceived(round: Int, nonce: [UInt8]) -> [SMPAction] {
        guard SMPCrypto.f4(peerX, ownX, nonce, passkeyBit(round)) == peerConfirm else {
            return fail(.peerConfirmMismatch(peer: peer), send: .confirmValueFailed)
        }
        peerNonce = nonce
        if round < 19 { return scConfirm(round: round + 1) }
        let a = [local.kind.rawValue] + local.bytes, b = [peer.kind.rawValue] + peer.bytes
        (macKey, ltk) = SMPCrypto.f5(dhKey, ownNonce, peerNonce, a, b)
        let ea = SMPCrypto.f6(macKey, ownNonce, peerNonce, passkeyBlock, request.ioCap, a, b)
        step = .dhKeyCheck
        return [.send(SMPPDU.dhKeyCheck(ea.reversed()).bytes)]
    }

    private mutating func dhKeyCheckReceived(_ eb: [UInt8]) -> [SMPAction] {
        let a = [local.kind.rawValue] + local.bytes, b = [peer.kind.rawValue] + peer.bytes
        guard SMPCrypto.f6(macKey, peerNonce, ownNonce, passkeyBlock, [responsePDU[3], responsePDU[2], responsePDU[1]], b, a) == eb else {
            return fail(.dhKeyCheckFailed(peer: peer), send: .dhKeyCheckFailed)
        }
        let key = Array(masked(ltk).reversed())
        bond = SMPBond(peer: peer, ltk: key, ediv: 0, rand: 0, keySize: keySize, authenticated: true, secureConnections: true)
        step = .encrypting
        return [.startEncryption(ltk: key, ediv: 0, rand: 0)]
    }

    private mutating func legacyRandomReceived(_ peerRandom: [UInt8]) -> [SMPAction] {
        let expected = SMPCrypto.c1(tk, peerRandom, preq: SMPPDU.pairingRequest(request).bytes, pres: responsePDU,
                                    iat: local.kind.rawValue, rat: peer.kind.rawValue, ia: local.bytes, ra: peer.bytes)
        guard expected == peerConfirm else { return fail(.peerConfirmMismatch(peer: peer), send: .confirmValueFailed) }
        let stk = Array(masked(SMPCrypto.s1(tk, peerRandom, ownNonce)).reversed())
        // The STK only secures this connection; the radio's distributed LTK is the bond.
        bond = SMPBond(peer: peer, ltk: [], ediv: 0, rand: 0, keySize: keySize, authenticated: true, secureConnections: false)
        step = .encrypting
        return [.startEncryption(ltk: stk, ediv: 0, rand: 0)]
    }

    /// Collects the radio's keys (nil: nothing received yet); when all have come, sends ours.
    private mutating func keyReceived(_ pdu: SMPPDU?) -> [SMPAction] {
        if pdu == nil {
            expectedKeys = request.responderKeys & response.responderKeys
            // LE Secure Connections derives the LTK on both sides; none is distributed.
            if secureConnections { expectedKeys &= ~PairingFeatures.Keys.encKey }
        }
        switch pdu {
        case nil: break
        case let .encryptionInformation(key)? where !secureConnections:
            bond?.ltk = key
        case let .centralIdentification(ediv, rand)? where !secureConnections:
            bond?.ediv = ediv
            bond?.rand = rand
            expectedKeys &= ~PairingFeatures.Keys.encKey
        case let .identityInformation(irk)?:
            bond?.peerIRK = irk
        case let .identityAddressInformation(address)?:
            bond?.peerIdentity = address.description
            expectedKeys &= ~PairingFeatures.Keys.idKey
        case .signingInformation?:
            expectedKeys &= ~PairingFeatures.Keys.signKey
        case let other?:
            return fail(.unexpected(peer: peer, code: other.bytes[0], step: "receiving keys"), send: .unspecifiedReason)
        }
        guard expectedKeys == 0, let bond else { return [] }
        var actions: [SMPAction] = []
        let ours = request.initiatorKeys & response.initiatorKeys
        if !secureConnections && ours & PairingFeatures.Keys.encKey != 0 {
            // Legacy: ours are the radio's own LTK, EDIV and Rand handed back. The spec has the
            // radio look its key up by EDIV and Rand; some stacks instead answer with the key the
            // central distributed. With the same values both ways, either finds the same key.
            let (key, ediv, rand) = bond.ltk.count == 16 ? (bond.ltk, bond.ediv, bond.rand)
                : (random(16), UInt16(random(2).reduce(0) { $0 << 8 | UInt16($1) }), random(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            actions.append(.send(SMPPDU.encryptionInformation(ltk: key).bytes))
            actions.append(.send(SMPPDU.centralIdentification(ediv: ediv, rand: rand).bytes))
        }
        if ours & PairingFeatures.Keys.idKey != 0, let identity = config.localIdentity {
            actions.append(.send(SMPPDU.identityInformation(irk: identity.irk.reversed()).bytes))
            actions.append(.send(SMPPDU.identityAddressInformation(identity.address).bytes))
        }
        step = .done
        actions.append(.completed(bond))
        return actions
    }

    // MARK: Helpers

    /// The passkey as a 128-bit value (TK, and r in f6).
    private var passkeyBlock: [UInt8] {
        [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8((config.passkey >> $0) & 0xFF) }
    }

    private func passkeyBit(_ round: Int) -> UInt8 { 0x80 | UInt8((config.passkey >> UInt32(round)) & 1) }

    /// A key shortened to the agreed size (its most significant bytes zeroed).
    private func masked(_ key: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: 16 - Int(keySize)) + key[(16 - Int(keySize))...]
    }

    private mutating func fail(_ error: SMPError, send reason: SMPFailure?) -> [SMPAction] {
        step = .failed
        var actions: [SMPAction] = []
        if let reason { actions.append(.send(SMPPDU.pairingFailed(reason).bytes)) }
        actions.append(.failed(error))
        return actions
    }
}
