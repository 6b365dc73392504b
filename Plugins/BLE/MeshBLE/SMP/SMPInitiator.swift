import Crypto
import Foundation

/// The central (initiator) side of LE pairing with passkey entry, LE Secure Connections or
/// legacy, as a pure state machine: PDUs and encryption changes in, actions out. No I/O and no
/// clock of its own (SMP's 30 s transaction timeout belongs to the connection); randomness,
/// the P-256 key and the time stamped on the bond are injectable for tests.
///
/// The connection calls `start()`, then feeds every channel-6 payload to `handle(pdu:)` and
/// the link's Encryption Change to `encryptionChanged(status:enabled:)`, carrying out the
/// returned actions in order until `.completed` or `.failed`. All keys in actions and the
/// bond are least significant byte first (see `SMPCrypto`).
public struct SMPInitiator: Sendable {
    /// `count` random bytes.
    public typealias RandomSource = @Sendable (_ count: Int) -> [UInt8]

    /// Where pairing stands.
    public enum State: Equatable, Sendable, CustomStringConvertible {
        case idle
        case awaitingPairingResponse
        case awaitingPublicKey
        /// LE Secure Connections passkey rounds 0...19 (one per passkey bit).
        case awaitingConfirm(round: Int)
        case awaitingRandom(round: Int)
        case awaitingDHKeyCheck
        case awaitingLegacyConfirm
        case awaitingLegacyRandom
        case awaitingEncryption
        case awaitingKeys
        case completed
        case failed

        public var description: String {
            switch self {
            case .idle: "not pairing"
            case .awaitingPairingResponse: "waiting for the Pairing Response"
            case .awaitingPublicKey: "waiting for the Pairing Public Key"
            case let .awaitingConfirm(round): "waiting for the Pairing Confirm of passkey round \(round + 1) of 20"
            case let .awaitingRandom(round): "waiting for the Pairing Random of passkey round \(round + 1) of 20"
            case .awaitingDHKeyCheck: "waiting for the DHKey Check"
            case .awaitingLegacyConfirm: "waiting for the Pairing Confirm"
            case .awaitingLegacyRandom: "waiting for the Pairing Random"
            case .awaitingEncryption: "waiting for the link to be encrypted"
            case .awaitingKeys: "receiving the radio's keys"
            case .completed: "paired"
            case .failed: "after pairing failed"
            }
        }
    }

    public private(set) var state = State.idle
    /// Before `start()` (or never started).
    public var isIdle: Bool { state == .idle }
    /// Completed or failed: nothing more will come out.
    public var isFinished: Bool { state == .completed || state == .failed }
    /// The association model, once the Pairing Response has been accepted.
    public private(set) var association: SMPAssociation?

    private let config: SMPConfig
    private let local: BDAddress
    private let peer: BDAddress
    private let random: RandomSource
    private let now: @Sendable () -> Date
    private var keyPair: SMPKeyPair?
    private var request = PairingFeatures(ioCapability: .keyboardOnly, authReq: [], initiatorKeys: [], responderKeys: [])
    private var response = PairingFeatures(ioCapability: .keyboardOnly, authReq: [], initiatorKeys: [], responderKeys: [])
    private var requestPDU: [UInt8] = [], responsePDU: [UInt8] = []
    private var secureConnections = false
    private var keySize: UInt8 = 16
    private var initiatorKeys: PairingFeatures.KeyDistribution = [], responderKeys: PairingFeatures.KeyDistribution = []
    // Pairing values, least significant byte first.
    private var ownX: [UInt8] = [], peerX: [UInt8] = [], dhKey: [UInt8] = []
    private var ownNonce: [UInt8] = [], peerNonce: [UInt8] = [], peerConfirm: [UInt8] = []
    private var macKey: [UInt8] = [], ltk: [UInt8] = []
    /// Key PDUs still to come from the radio, in the order the specification gives (3.6.1).
    private var pendingKeys: [UInt8] = []
    private var bond: SMPBond?

    /// `local` and `peer` are the addresses (with types) of this connection: the initiator's
    /// own address as the controller uses it, and the radio's. `privateKey` is generated when
    /// nil; `now` stamps the bond.
    public init(config: SMPConfig, local: BDAddress, peer: BDAddress, random: @escaping RandomSource = SMPInitiator.systemRandom,
                privateKey: P256.KeyAgreement.PrivateKey? = nil, now: @escaping @Sendable () -> Date = { Date() })
    {
        self.config = config
        self.local = local
        self.peer = peer
        self.random = random
        self.now = now
        keyPair = privateKey.map(SMPKeyPair.init)
    }

    /// Random bytes from the system's cryptographically secure generator.
    public static let systemRandom: RandomSource = { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The AuthReq of a Security Request, nil when `pdu` is not a well-formed one. The radio
    /// sends it (for example after refusing access) to ask the central to secure the link:
    /// encrypt with a stored bond, or `start()` pairing. `handle(pdu:)` ignores it.
    public static func securityRequest(in pdu: [UInt8]) -> PairingFeatures.AuthReq? {
        guard pdu.first == SMPPDU.Code.securityRequest else { return nil }
        do {
            if case let .securityRequest(auth) = try SMPPDU(pdu) { return auth }
        } catch {
            return nil  // a Security Request of the wrong length asks for nothing
        }
        return nil
    }

    // MARK: Inputs

    /// Sends the Pairing Request. A configuration that cannot pair fails at once.
    public mutating func start() -> [SMPAction] {
        guard state == .idle else { return [] }
        if let problem = config.problem() {
            state = .failed
            return [.failed(problem)]
        }
        var auth: PairingFeatures.AuthReq = [.mitm]
        if config.bonding { auth.insert(.bonding) }
        if config.allowSecureConnections { auth.insert(.secureConnections) }
        var ours: PairingFeatures.KeyDistribution = []
        var theirs: PairingFeatures.KeyDistribution = []
        if config.bonding {
            // Legacy keys go both ways (see `sendOwnKeys`); LE Secure Connections ignores EncKey.
            if config.allowLegacy { ours.insert(.encKey) }
            if config.localIdentity != nil { ours.insert(.idKey) }
            theirs = [.encKey, .idKey]
        }
        request = PairingFeatures(ioCapability: config.ioCapability, authReq: auth, maxKeySize: config.maxKeySize,
                                  initiatorKeys: ours, responderKeys: theirs)
        requestPDU = SMPPDU.pairingRequest(request).bytes
        state = .awaitingPairingResponse
        return [.send(requestPDU)]
    }

    /// One payload from L2CAP channel 6. Before `start()` only a Security Request or Pairing
    /// Failed is quietly ignored; anything else is answered with Pairing Failed (the state
    /// stays idle). After completion or failure everything is ignored.
    public mutating func handle(pdu bytes: [UInt8]) -> [SMPAction] {
        if isFinished { return [] }
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU(bytes)
        } catch {
            if state == .idle { return [.send(SMPPDU.pairingFailed(error.reason).bytes)] }
            return fail(Abort(.malformed(peer: peer, error), send: error.reason))
        }
        switch pdu {
        case let .pairingFailed(reason):
            if state == .idle { return [] }
            state = .failed
            return [.failed(reason == .confirmValueFailed ? .wrongPasskey(peer: peer) : .peerFailed(peer: peer, reason))]
        case .securityRequest, .keypressNotification:
            // Idle: the connection decides (`securityRequest(in:)`). Pairing: already under way;
            // keypresses only inform the side that displays.
            return []
        default:
            if state == .idle { return [.send(SMPPDU.pairingFailed(.unspecifiedReason).bytes)] }
        }
        do throws(Abort) {
            return try step(pdu, bytes)
        } catch {
            return fail(error)
        }
    }

    /// The link's Encryption Change event. Only the one that pairing asked for (after
    /// `.startEncryption`) matters; others (a key refresh, a re-encryption) are ignored.
    public mutating func encryptionChanged(status: UInt8, enabled: Bool) -> [SMPAction] {
        guard state == .awaitingEncryption else { return [] }
        guard status == HCIStatus.success, enabled else {
            state = .failed
            return [.failed(.encryptionFailed(peer: peer, status: status))]
        }
        // The responder distributes first, in this order; then the initiator (3.6.1).
        if !secureConnections && responderKeys.contains(.encKey) {
            pendingKeys += [SMPPDU.Code.encryptionInformation, SMPPDU.Code.centralIdentification]
        }
        if responderKeys.contains(.idKey) { pendingKeys += [SMPPDU.Code.identityInformation, SMPPDU.Code.identityAddressInformation] }
        if responderKeys.contains(.signKey) { pendingKeys.append(SMPPDU.Code.signingInformation) }
        state = .awaitingKeys
        guard pendingKeys.isEmpty else { return [] }
        do throws(Abort) {
            return try sendOwnKeys()
        } catch {
            return fail(error)
        }
    }

    // MARK: Steps

    /// `bytes` is the PDU as received (c1 hashes the Pairing Response exactly so).
    private mutating func step(_ pdu: SMPPDU, _ bytes: [UInt8]) throws(Abort) -> [SMPAction] {
        switch (state, pdu) {
        case let (.awaitingPairingResponse, .pairingResponse(features)):
            return try responseReceived(features, bytes)
        case let (.awaitingPublicKey, .pairingPublicKey(x, y)):
            return try publicKeyReceived(x: x, y: y)
        case let (.awaitingConfirm(round), .pairingConfirm(value)):
            peerConfirm = value
            state = .awaitingRandom(round: round)
            return [.send(SMPPDU.pairingRandom(ownNonce).bytes)]
        case let (.awaitingRandom(round), .pairingRandom(value)):
            return try scRandomReceived(round: round, nonce: value)
        case let (.awaitingDHKeyCheck, .dhKeyCheck(value)):
            return try dhKeyCheckReceived(value)
        case let (.awaitingLegacyConfirm, .pairingConfirm(value)):
            peerConfirm = value
            state = .awaitingLegacyRandom
            return [.send(SMPPDU.pairingRandom(ownNonce).bytes)]
        case let (.awaitingLegacyRandom, .pairingRandom(value)):
            return try legacyRandomReceived(value)
        case (.awaitingKeys, _):
            return try keyReceived(pdu)
        default:
            throw Abort(.unexpected(peer: peer, code: pdu.code, step: state.description), send: .unspecifiedReason)
        }
    }

    private mutating func responseReceived(_ features: PairingFeatures, _ bytes: [UInt8]) throws(Abort) -> [SMPAction] {
        response = features
        responsePDU = bytes
        guard features.maxKeySize >= 7 else {
            throw Abort(.keySizeRefused(peer: peer, size: features.maxKeySize), send: .encryptionKeySize)
        }
        guard features.maxKeySize <= 16 else {
            throw Abort(.keySizeRefused(peer: peer, size: features.maxKeySize), send: .invalidParameters)
        }
        keySize = min(request.maxKeySize, features.maxKeySize)
        secureConnections = request.authReq.contains(.secureConnections) && features.authReq.contains(.secureConnections)
        guard secureConnections || config.allowLegacy else { throw Abort(.legacyRefused(peer: peer), send: .authenticationRequirements) }
        let model = SMPAssociation.select(initiator: request, responder: features, secureConnections: secureConnections)
        switch model {
        case .passkeyEntry: break
        case .justWorks:
            throw Abort(.justWorksRefused(peer: peer, peerIO: features.ioCapability), send: .authenticationRequirements)
        case .numericComparison:
            throw Abort(.numericComparisonUnsupported(peer: peer), send: .authenticationRequirements)
        case .outOfBand:
            throw Abort(.outOfBandUnsupported(peer: peer), send: .oobNotAvailable)
        }
        association = model
        // A responder may only drop keys from the request, never add.
        initiatorKeys = request.initiatorKeys.intersection(features.initiatorKeys)
        responderKeys = request.responderKeys.intersection(features.responderKeys)
        if secureConnections {
            let pair = keyPair ?? SMPKeyPair()
            keyPair = pair
            ownX = pair.x
            state = .awaitingPublicKey
            return [.send(SMPPDU.pairingPublicKey(x: pair.x, y: pair.y).bytes)]
        }
        ownNonce = try nonce()
        let confirm = try Self.crypto { () throws(SMPCryptoError) in
            try SMPCrypto.c1(passkeyBlock, ownNonce, preq: requestPDU, pres: responsePDU, initiator: local, responder: peer)
        }
        state = .awaitingLegacyConfirm
        return [.send(SMPPDU.pairingConfirm(confirm).bytes)]
    }

    private mutating func publicKeyReceived(x: [UInt8], y: [UInt8]) throws(Abort) -> [SMPAction] {
        guard let pair = keyPair else { throw Abort(.internalFailure("no local key pair"), send: .unspecifiedReason) }
        // Our own key reflected back would let the radio's side skip knowing the passkey bits.
        guard x != pair.x || y != pair.y else { throw Abort(.invalidPublicKey(peer: peer), send: .dhKeyCheckFailed) }
        do {
            dhKey = try pair.dhKey(peerX: x, peerY: y)
        } catch {
            switch error {
            case .notOnCurve: throw Abort(.invalidPublicKey(peer: peer), send: .dhKeyCheckFailed)
            case let .agreementFailed(why): throw Abort(.internalFailure("ECDH: \(why)"), send: .unspecifiedReason)
            }
        }
        peerX = x
        return try scConfirm(round: 0)
    }

    /// Round `round` of 20: commit to bit `round` of the passkey (least significant first).
    private mutating func scConfirm(round: Int) throws(Abort) -> [SMPAction] {
        ownNonce = try nonce()
        let confirm = try Self.crypto { () throws(SMPCryptoError) in try SMPCrypto.f4(ownX, peerX, ownNonce, passkeyBit(round)) }
        state = .awaitingConfirm(round: round)
        return [.send(SMPPDU.pairingConfirm(confirm).bytes)]
    }

    private mutating func scRandomReceived(round: Int, nonce: [UInt8]) throws(Abort) -> [SMPAction] {
        let expected = try Self.crypto { () throws(SMPCryptoError) in try SMPCrypto.f4(peerX, ownX, nonce, passkeyBit(round)) }
        guard expected == peerConfirm else { throw Abort(.peerConfirmMismatch(peer: peer), send: .confirmValueFailed) }
        peerNonce = nonce
        if round < 19 { return try scConfirm(round: round + 1) }
        let (keys, check) = try Self.crypto { () throws(SMPCryptoError) in
            let keys = try SMPCrypto.f5(dhKey, ownNonce, peerNonce, local, peer)
            return (keys, try SMPCrypto.f6(keys.macKey, ownNonce, peerNonce, passkeyBlock, request.ioCap, local, peer))
        }
        (macKey, ltk) = keys
        state = .awaitingDHKeyCheck
        return [.send(SMPPDU.dhKeyCheck(check).bytes)]
    }

    private mutating func dhKeyCheckReceived(_ value: [UInt8]) throws(Abort) -> [SMPAction] {
        let expected = try Self.crypto { () throws(SMPCryptoError) in
            try SMPCrypto.f6(macKey, peerNonce, ownNonce, passkeyBlock, response.ioCap, peer, local)
        }
        guard expected == value else { throw Abort(.dhKeyCheckFailed(peer: peer), send: .dhKeyCheckFailed) }
        let key = masked(ltk)
        bond = SMPBond(peer: peer, ltk: key, ediv: 0, rand: 0, keySize: keySize, authenticated: true, secureConnections: true, pairedAt: now())
        state = .awaitingEncryption
        return [.startEncryption(ltk: key, ediv: 0, rand: 0)]
    }

    private mutating func legacyRandomReceived(_ peerRandom: [UInt8]) throws(Abort) -> [SMPAction] {
        let stk = try Self.crypto { () throws(SMPCryptoError) -> [UInt8]? in
            let expected = try SMPCrypto.c1(passkeyBlock, peerRandom, preq: requestPDU, pres: responsePDU, initiator: local, responder: peer)
            guard expected == peerConfirm else { return nil }
            return try SMPCrypto.s1(passkeyBlock, peerRandom, ownNonce)
        }
        guard let stk else { throw Abort(.peerConfirmMismatch(peer: peer), send: .confirmValueFailed) }
        // The STK secures this connection only; the LTK the radio distributes is the bond.
        bond = SMPBond(peer: peer, ltk: [], ediv: 0, rand: 0, keySize: keySize, authenticated: true, secureConnections: false, pairedAt: now())
        state = .awaitingEncryption
        return [.startEncryption(ltk: masked(stk), ediv: 0, rand: 0)]
    }

    /// One of the radio's keys, which must come in the order of `pendingKeys`.
    private mutating func keyReceived(_ pdu: SMPPDU) throws(Abort) -> [SMPAction] {
        guard let next = pendingKeys.first, pdu.code == next else {
            let step = pendingKeys.first.flatMap(SMPPDU.name(of:)).map { "waiting for its \($0)" } ?? "no more keys were due"
            throw Abort(.unexpected(peer: peer, code: pdu.code, step: step), send: .unspecifiedReason)
        }
        pendingKeys.removeFirst()
        switch pdu {
        case let .encryptionInformation(key): bond?.ltk = key
        case let .centralIdentification(ediv, rand):
            bond?.ediv = ediv
            bond?.rand = rand
        case let .identityInformation(irk): bond?.peerIRK = irk
        case let .identityAddressInformation(address): bond?.setPeerIdentity(address)
        case let .signingInformation(csrk): bond?.peerCSRK = csrk
        default: break  // `pendingKeys` holds key codes only
        }
        guard pendingKeys.isEmpty else { return [] }
        return try sendOwnKeys()
    }

    /// Sends the keys this host announced, in the specification's order, and completes.
    private mutating func sendOwnKeys() throws(Abort) -> [SMPAction] {
        guard var bond else { throw Abort(.internalFailure("no bond to complete"), send: .unspecifiedReason) }
        var actions: [SMPAction] = []
        if !secureConnections && initiatorKeys.contains(.encKey) {
            // Ours is only used if the radio ever connects to us as a central, which a MeshCore
            // radio never does. We hand back the radio's own LTK, EDIV and Rand: some stacks
            // (Bumble's, which the tests use) answer a later encryption as peripheral with the
            // key the central distributed instead of their own, and with equal keys both
            // lookups agree. A radio that sent no LTK gets a fresh random one.
            let (key, ediv, rand): ([UInt8], UInt16, UInt64)
            if bond.ltk.count == 16 {
                (key, ediv, rand) = (bond.ltk, bond.ediv, bond.rand)
            } else {
                let fresh = try nonce(16 + 2 + 8)
                key = masked(Array(fresh[0..<16]))
                ediv = UInt16(fresh[16]) | UInt16(fresh[17]) << 8
                rand = fresh[18...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            actions.append(.send(SMPPDU.encryptionInformation(ltk: key).bytes))
            actions.append(.send(SMPPDU.centralIdentification(ediv: ediv, rand: rand).bytes))
            (bond.localLTK, bond.localEDIV, bond.localRand) = (key, ediv, rand)
        }
        if initiatorKeys.contains(.idKey), let identity = config.localIdentity {
            actions.append(.send(SMPPDU.identityInformation(irk: identity.irk).bytes))
            actions.append(.send(SMPPDU.identityAddressInformation(identity.address).bytes))
            bond.setLocalIdentity(irk: identity.irk, address: identity.address)
        }
        self.bond = bond
        state = .completed
        actions.append(.completed(bond))
        return actions
    }

    // MARK: Helpers

    /// The passkey as a 128-bit value (TK, and r in f6), least significant byte first.
    private var passkeyBlock: [UInt8] {
        [0, 8, 16, 24].map { UInt8((config.passkey >> $0) & 0xFF) } + [UInt8](repeating: 0, count: 12)
    }

    /// f4's Z for a passkey round: 0x80 | bit `round` of the passkey.
    private func passkeyBit(_ round: Int) -> UInt8 { 0x80 | UInt8((config.passkey >> UInt32(round)) & 1) }

    /// A key shortened to the agreed size: its most significant bytes (the last ones) zeroed.
    private func masked(_ key: [UInt8]) -> [UInt8] {
        Array(key.prefix(Int(keySize))) + [UInt8](repeating: 0, count: max(0, 16 - Int(keySize)))
    }

    private func nonce(_ count: Int = 16) throws(Abort) -> [UInt8] {
        let bytes = random(count)
        guard bytes.count == count else {
            throw Abort(.internalFailure("the random source gave \(bytes.count) bytes instead of \(count)"), send: .unspecifiedReason)
        }
        return bytes
    }

    private static func crypto<T>(_ body: () throws(SMPCryptoError) -> T) throws(Abort) -> T {
        do {
            return try body()
        } catch {
            throw Abort(.internalFailure(error.description), send: .unspecifiedReason)
        }
    }

    private mutating func fail(_ abort: Abort) -> [SMPAction] {
        state = .failed
        var actions: [SMPAction] = []
        if let reason = abort.reason { actions.append(.send(SMPPDU.pairingFailed(reason).bytes)) }
        actions.append(.failed(abort.error))
        return actions
    }

    /// Ends pairing: the error for the connection and the reason owed to the radio.
    struct Abort: Error {
        let error: SMPError
        let reason: SMPFailure?
        init(_ error: SMPError, send reason: SMPFailure?) {
            self.error = error
            self.reason = reason
        }
    }
}
