import Foundation
@testable import MeshBLE
import Testing

/// SMPInitiator against `SMPTestResponder` (a radio built from the same crypto functions),
/// plus hand-made PDUs for the ways a radio can go wrong.
@Suite struct SMPInitiatorTests {
    let central = BDAddress(littleEndian: [2, 0, 0, 0, 0, 0xE1], kind: .random)
    let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)
    let identityIRK: [UInt8] = (0..<16).map { UInt8(0xA0 + $0) }
    let pairedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// What a run of the initiator against a responder ended with.
    struct Run {
        var bond: SMPBond?
        var error: SMPError?
        /// PDUs the initiator sent, in order.
        var sent: [[UInt8]] = []
        /// Keys given to startEncryption.
        var encryptedWith: [[UInt8]] = []
        var finalState = SMPInitiator.State.idle
    }

    func responder() -> SMPTestResponder { SMPTestResponder(address: radio, central: central) }

    func config(_ passkey: UInt32 = 123_456, identity: Bool = true) -> SMPConfig {
        var config = SMPConfig(passkey: passkey)
        if identity { config.localIdentity = (identityIRK, central) }
        return config
    }

    func initiator(_ config: SMPConfig, seed: UInt64 = 7) -> SMPInitiator {
        SMPInitiator(config: config, local: central, peer: radio, random: SMPTestRandom(seed: seed).source, now: { [pairedAt] in pairedAt })
    }

    /// Runs initiator and responder against each other until the initiator finishes; the
    /// link "encrypts" when asked, then the responder distributes its keys.
    func pair(_ config: SMPConfig, _ responder: inout SMPTestResponder) throws -> Run {
        var smp = initiator(config)
        var run = Run()
        var pending = smp.start()
        var steps = 0
        while !pending.isEmpty, steps < 1000 {
            steps += 1
            switch pending.removeFirst() {
            case let .send(pdu):
                run.sent.append(pdu)
                for reply in try responder.receive(pdu) { pending += smp.handle(pdu: reply) }
            case let .startEncryption(ltk, ediv, rand):
                #expect(ediv == 0 && rand == 0)
                run.encryptedWith.append(ltk)
                pending += smp.encryptionChanged(status: 0, enabled: true)
                for key in responder.distribution() { pending += smp.handle(pdu: key) }
            case let .completed(bond):
                run.bond = bond
            case let .failed(error):
                run.error = error
            }
        }
        run.finalState = smp.state
        #expect(smp.isFinished, "pairing stalled in state \(smp.state)")
        return run
    }

    // MARK: Success

    @Test(arguments: [UInt32(123_456), 0, 999_999])
    func secureConnectionsPasskey(passkey: UInt32) throws {
        var radioSide = responder()
        radioSide.passkey = passkey
        let run = try pair(config(passkey), &radioSide)
        let bond = try #require(run.bond)
        #expect(run.error == nil && run.finalState == .completed)
        // Both sides derived the same LTK, and the link was encrypted with it.
        #expect(run.encryptedWith == [radioSide.ltk])
        #expect(bond.ltk == radioSide.ltk && bond.ediv == 0 && bond.rand == 0 && bond.keySize == 16)
        #expect(bond.secureConnections && bond.authenticated && bond.pairedAt == pairedAt)
        #expect(bond.peer == radio.description && bond.peerRandom)
        #expect(bond.peerIRK == radioSide.irk && bond.peerIdentity == radio.description && bond.peerIdentityRandom == true)
        // Request, public key, 20 rounds of confirm and random, DHKey check, then our identity.
        let rounds: [UInt8] = Array([[UInt8]](repeating: [0x03, 0x04], count: 20).joined())
        let expectedCodes: [UInt8] = [0x01, 0x0C] + rounds + [0x0D, 0x08, 0x09]
        #expect(run.sent.map { $0[0] } == expectedCodes)
        #expect(run.sent[0] == [0x01, 0x02, 0x00, 0x0D, 0x10, 0x03, 0x03])
        // Identity only: LE Secure Connections distributes no LTK.
        #expect(radioSide.receivedKeys == [.identityInformation(irk: identityIRK), .identityAddressInformation(central)])
        #expect(bond.localIRK == identityIRK && bond.localIdentity == central.description && bond.localLTK == nil)
    }

    @Test func legacyPasskeyWithKeysBothWays() throws {
        var radioSide = responder()
        radioSide.secureConnections = false
        let run = try pair(config(), &radioSide)
        let bond = try #require(run.bond)
        #expect(!bond.secureConnections && bond.authenticated)
        // Encrypted with the STK; the bond is the LTK the radio distributed.
        #expect(run.encryptedWith == [radioSide.ltk])
        #expect(bond.ltk == radioSide.distributedLTK && bond.ediv == radioSide.distributedEDIV && bond.rand == radioSide.distributedRand)
        #expect(bond.peerIRK == radioSide.irk && bond.peerIdentity == radio.description)
        #expect(run.sent.map { $0[0] } == [0x01, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09])
        // Ours, in order: the radio's own LTK, EDIV and Rand handed back, then our identity.
        #expect(radioSide.receivedKeys == [
            .encryptionInformation(ltk: radioSide.distributedLTK),
            .centralIdentification(ediv: radioSide.distributedEDIV, rand: radioSide.distributedRand),
            .identityInformation(irk: identityIRK), .identityAddressInformation(central),
        ])
        #expect(bond.localLTK == radioSide.distributedLTK && bond.localEDIV == radioSide.distributedEDIV)
    }

    @Test func legacyRadioWithoutAnLTKGetsAFreshOneAndNoBondKey() throws {
        var radioSide = responder()
        radioSide.secureConnections = false
        radioSide.distributes = [.idKey]
        let run = try pair(config(identity: false), &radioSide)
        let bond = try #require(run.bond)
        #expect(bond.ltk.isEmpty)  // nothing to re-encrypt with later: LinkSecurity does not store it
        guard case let .encryptionInformation(ltk)? = radioSide.receivedKeys.first else { Issue.record("no LTK sent"); return }
        #expect(ltk.count == 16 && ltk != radioSide.distributedLTK && bond.localLTK == ltk)
        #expect(radioSide.receivedKeys.count == 2)  // no identity configured, none announced
    }

    @Test(arguments: [true, false])
    func shorterKeysAreMasked(secureConnections: Bool) throws {
        var radioSide = responder()
        radioSide.secureConnections = secureConnections
        radioSide.maxKeySize = 7
        let run = try pair(config(), &radioSide)
        let key = try #require(run.encryptedWith.first)
        #expect(key == radioSide.maskedKey && key[7...].allSatisfy { $0 == 0 } && key[..<7].contains { $0 != 0 })
        #expect(run.bond?.keySize == 7)
    }

    @Test func withoutIdentityOnlyTheRequiredKeysAreAnnounced() throws {
        var smp = initiator(config(identity: false))
        #expect(smp.start() == [.send([0x01, 0x02, 0x00, 0x0D, 0x10, 0x01, 0x03])])
        var secureOnly = config()
        secureOnly.allowLegacy = false
        var sc = initiator(secureOnly)
        #expect(sc.start() == [.send([0x01, 0x02, 0x00, 0x0D, 0x10, 0x02, 0x03])])
        var noBond = config()
        noBond.bonding = false
        var plain = initiator(noBond)
        #expect(plain.start() == [.send([0x01, 0x02, 0x00, 0x0C, 0x10, 0x00, 0x00])])
    }

    @Test func keyboardDisplayPairsLegacyWithAKeyboardDisplayRadio() throws {
        // Legacy passkey entry where this host would display: the configured PIN is the number.
        var radioSide = responder()
        radioSide.io = .keyboardDisplay
        radioSide.secureConnections = false
        var cfg = config()
        cfg.ioCapability = .keyboardDisplay
        let run = try pair(cfg, &radioSide)
        #expect(run.bond != nil)
    }

    // MARK: Wrong passkey

    @Test(arguments: [true, false])
    func wrongPasskeyRefusedByTheRadio(secureConnections: Bool) throws {
        var radioSide = responder()
        radioSide.secureConnections = secureConnections
        let run = try pair(config(111_111), &radioSide)
        #expect(run.error == .wrongPasskey(peer: radio))
        #expect(run.bond == nil && run.encryptedWith.isEmpty && run.finalState == .failed)
        // The radio said 0x04; we owe it nothing.
        #expect(run.sent.last?.first != SMPPDU.Code.pairingFailed)
        let text = run.error?.description ?? ""
        #expect(text.contains("refused the PIN") && text.contains("default 123456"))
    }

    @Test(arguments: [true, false])
    func wrongPasskeyCaughtHere(secureConnections: Bool) throws {
        var radioSide = responder()
        radioSide.secureConnections = secureConnections
        radioSide.checksConfirm = false
        let run = try pair(config(111_111), &radioSide)
        #expect(run.error == .peerConfirmMismatch(peer: radio))
        #expect(run.sent.last == [0x05, 0x04])
        #expect(run.encryptedWith.isEmpty)
        #expect(run.error?.description.contains("PIN is probably wrong") == true)
    }

    @Test func aPasskeyDifferingOnlyInItsLastBitFailsInTheLastRound() throws {
        var radioSide = responder()
        radioSide.checksConfirm = false
        radioSide.passkey = 123_456 ^ (1 << 19)  // 647744: bit 19 differs
        let run = try pair(config(123_456), &radioSide)
        #expect(run.error == .peerConfirmMismatch(peer: radio))
        // 1 request, 1 public key, 20 confirms, 20 randoms, then Pairing Failed.
        #expect(run.sent.count == 43 && run.sent.last == [0x05, 0x04])
    }

    // MARK: Refusals

    @Test(arguments: [true, false])
    func justWorksIsRefused(secureConnections: Bool) throws {
        var radioSide = responder()
        radioSide.io = .noInputNoOutput
        radioSide.refusesJustWorks = false
        radioSide.secureConnections = secureConnections
        let run = try pair(config(), &radioSide)
        #expect(run.error == .justWorksRefused(peer: radio, peerIO: .noInputNoOutput))
        #expect(run.sent.last == [0x05, 0x03])
        #expect(run.error?.description.contains("Just Works") == true)
    }

    @Test func justWorksFromDisplayOnlyOnBothSidesIsRefused() {
        var cfg = config()
        cfg.ioCapability = .displayOnly
        var smp = initiator(cfg)
        _ = smp.start()
        let actions = smp.handle(pdu: [0x02, 0x00, 0x00, 0x0D, 16, 0x01, 0x03])
        #expect(actions == [.send([0x05, 0x03]), .failed(.justWorksRefused(peer: radio, peerIO: .displayOnly))])
    }

    @Test func numericComparisonIsRefused() {
        var cfg = config()
        cfg.ioCapability = .keyboardDisplay
        var smp = initiator(cfg)
        _ = smp.start()
        let actions = smp.handle(pdu: [0x02, 0x04, 0x00, 0x0D, 16, 0x01, 0x03])
        #expect(actions == [.send([0x05, 0x03]), .failed(.numericComparisonUnsupported(peer: radio))])
    }

    @Test func outOfBandIsRefused() {
        var smp = initiator(config())
        _ = smp.start()
        let actions = smp.handle(pdu: [0x02, 0x00, 0x01, 0x0D, 16, 0x01, 0x03])
        #expect(actions == [.send([0x05, 0x02]), .failed(.outOfBandUnsupported(peer: radio))])
    }

    @Test func legacyIsRefusedWhenOnlySecureConnectionsIsAllowed() {
        var cfg = config()
        cfg.allowLegacy = false
        var smp = initiator(cfg)
        _ = smp.start()
        #expect(smp.handle(pdu: [0x02, 0x00, 0x00, 0x05, 16, 0x00, 0x03]) == [.send([0x05, 0x03]), .failed(.legacyRefused(peer: radio))])
    }

    @Test func keySizesOutsideSevenToSixteenAreRefused() {
        var short = initiator(config())
        _ = short.start()
        #expect(short.handle(pdu: [0x02, 0x00, 0x00, 0x0D, 6, 0x01, 0x03]) == [.send([0x05, 0x06]), .failed(.keySizeRefused(peer: radio, size: 6))])
        var long = initiator(config())
        _ = long.start()
        #expect(long.handle(pdu: [0x02, 0x00, 0x00, 0x0D, 17, 0x01, 0x03]) == [.send([0x05, 0x0A]), .failed(.keySizeRefused(peer: radio, size: 17))])
    }

    // MARK: The radio fails or misbehaves

    @Test func peerFailureIsNamed() {
        var smp = initiator(config())
        _ = smp.start()
        #expect(smp.handle(pdu: [0x05, 0x09]) == [.failed(.peerFailed(peer: radio, .repeatedAttempts))])
        #expect(smp.isFinished && smp.state == .failed)
        #expect(SMPError.peerFailed(peer: radio, .repeatedAttempts).description.contains("Repeated Attempts"))
        // Nothing more comes out once failed.
        #expect(smp.handle(pdu: [0x02, 0, 0, 0x0D, 16, 0, 0]).isEmpty)
        #expect(smp.encryptionChanged(status: 0, enabled: true).isEmpty)
    }

    @Test func peerFailureDuringPasskeyRounds() throws {
        var smp = initiator(config())
        var radioSide = responder()
        var replies: [SMPAction] = []
        for action in smp.start() {
            guard case let .send(pdu) = action else { continue }
            for reply in try radioSide.receive(pdu) { replies = smp.handle(pdu: reply) }
        }
        // Pairing Response answered with our public key.
        guard case let .send(publicKey)? = replies.first else { Issue.record("no public key"); return }
        for reply in try radioSide.receive(publicKey) { replies = smp.handle(pdu: reply) }
        #expect(smp.state == .awaitingConfirm(round: 0))
        #expect(smp.handle(pdu: [0x05, 0x04]) == [.failed(.wrongPasskey(peer: radio))])
    }

    @Test func unexpectedPDUsAbortWithUnspecifiedReason() {
        var smp = initiator(config())
        _ = smp.start()
        let actions = smp.handle(pdu: [0x03] + [UInt8](repeating: 0, count: 16))
        #expect(actions == [.send([0x05, 0x08]), .failed(.unexpected(peer: radio, code: 0x03, step: "waiting for the Pairing Response"))])
        #expect(SMPError.unexpected(peer: radio, code: 0x03, step: "waiting for the Pairing Response").description
            == "F0:00:00:00:00:01 sent SMP Pairing Confirm while waiting for the Pairing Response: pairing stopped; try again")
        // A Pairing Request is for a peripheral to receive.
        var other = initiator(config())
        _ = other.start()
        #expect(other.handle(pdu: SMPPDU.pairingRequest(PairingFeatures(ioCapability: .displayOnly, authReq: .mitm, initiatorKeys: [], responderKeys: [])).bytes).first
            == .send([0x05, 0x08]))
    }

    @Test func malformedPDUsAbortWithTheirReason() {
        var short = initiator(config())
        _ = short.start()
        #expect(short.handle(pdu: [0x02, 0, 0])
            == [.send([0x05, 0x0A]), .failed(.malformed(peer: radio, SMPPDUError(code: 0x02, problem: .wrongLength(expected: 7, actual: 3))))])
        var unknown = initiator(config())
        _ = unknown.start()
        #expect(unknown.handle(pdu: [0x42]) == [.send([0x05, 0x07]), .failed(.malformed(peer: radio, SMPPDUError(code: 0x42, problem: .unknownCode)))])
        var empty = initiator(config())
        _ = empty.start()
        #expect(empty.handle(pdu: []).first == .send([0x05, 0x0A]))
    }

    @Test(arguments: [false, true])
    func invalidPublicKeysAreRefused(reflected: Bool) throws {
        var smp = initiator(config())
        var radioSide = responder()
        guard case let .send(request)? = smp.start().first, let response = try radioSide.receive(request).first,
              case let .send(publicKey)? = smp.handle(pdu: response).first
        else { Issue.record("no public key"); return }
        // Our own key sent back, or a point off the curve.
        let bad = reflected ? publicKey : [0x0C] + [UInt8](repeating: 1, count: 64)
        #expect(smp.handle(pdu: bad) == [.send([0x05, 0x0B]), .failed(.invalidPublicKey(peer: radio))])
    }

    @Test func aWrongDHKeyCheckIsRefused() throws {
        var radioSide = responder()
        radioSide.corruptDHKeyCheck = true
        let run = try pair(config(), &radioSide)
        #expect(run.error == .dhKeyCheckFailed(peer: radio))
        #expect(run.sent.last == [0x05, 0x0B] && run.encryptedWith.isEmpty)
    }

    @Test func keysMustComeInTheSpecificationsOrder() throws {
        var smp = initiator(config())
        var radioSide = responder()
        radioSide.secureConnections = false
        var pending = smp.start()
        while let action = pending.first {
            pending.removeFirst()
            if case let .send(pdu) = action { for reply in try radioSide.receive(pdu) { pending += smp.handle(pdu: reply) } }
        }
        #expect(smp.state == .awaitingEncryption)
        #expect(smp.encryptionChanged(status: 0, enabled: true).isEmpty)
        // Central Identification before Encryption Information.
        let keys = radioSide.distribution()
        #expect(smp.handle(pdu: keys[1]) == [.send([0x05, 0x08]),
                                             .failed(.unexpected(peer: radio, code: 0x07, step: "waiting for its Encryption Information"))])
    }

    @Test func encryptionFailureEndsPairing() throws {
        var smp = initiator(config())
        var radioSide = responder()
        var pending = smp.start()
        var asked = false
        while let action = pending.first {
            pending.removeFirst()
            switch action {
            case let .send(pdu): for reply in try radioSide.receive(pdu) { pending += smp.handle(pdu: reply) }
            case .startEncryption: asked = true
            default: Issue.record("unexpected \(action)")
            }
        }
        #expect(asked && smp.state == .awaitingEncryption)
        #expect(smp.encryptionChanged(status: 0x06, enabled: false) == [.failed(.encryptionFailed(peer: radio, status: 0x06))])
        #expect(smp.isFinished)
    }

    // MARK: Idle, Security Request, configuration

    @Test func securityRequestIsSurfacedNotHandled() {
        #expect(SMPInitiator.securityRequest(in: [0x0B, 0x0D]) == [.bonding, .mitm, .secureConnections])
        #expect(SMPInitiator.securityRequest(in: [0x0B]) == nil)
        #expect(SMPInitiator.securityRequest(in: [0x0B, 0x0D, 0x00]) == nil)
        #expect(SMPInitiator.securityRequest(in: [0x01, 0x02, 0x00, 0x0D, 0x10, 0x03, 0x03]) == nil)
        var smp = initiator(config())
        #expect(smp.isIdle)
        #expect(smp.handle(pdu: [0x0B, 0x0D]).isEmpty)
        #expect(smp.isIdle)
        // The connection chooses to pair; a second Security Request meanwhile changes nothing.
        #expect(smp.start().count == 1)
        #expect(smp.handle(pdu: [0x0B, 0x0D]).isEmpty && smp.state == .awaitingPairingResponse)
    }

    @Test func idleAnswersStrayPDUsButStaysIdle() {
        var smp = initiator(config())
        #expect(smp.handle(pdu: [0x03] + [UInt8](repeating: 0, count: 16)) == [.send([0x05, 0x08])])
        #expect(smp.handle(pdu: [0x42]) == [.send([0x05, 0x07])])
        #expect(smp.handle(pdu: [0x05, 0x08]).isEmpty)
        #expect(smp.encryptionChanged(status: 0, enabled: true).isEmpty)
        #expect(smp.isIdle)
    }

    @Test func unusableConfigurationsFailAtStart() {
        var tooLong = initiator(config(1_000_000))
        #expect(tooLong.start() == [.failed(.invalidPasskey(1_000_000))])
        #expect(tooLong.state == .failed)
        var neither = config()
        neither.allowLegacy = false
        neither.allowSecureConnections = false
        var none = initiator(neither)
        guard case .failed(.invalidConfiguration)? = none.start().first else { Issue.record("accepted"); return }
        var badIRK = config()
        badIRK.localIdentity = ([1, 2, 3], central)
        var irk = initiator(badIRK)
        guard case .failed(.invalidConfiguration)? = irk.start().first else { Issue.record("accepted"); return }
        var resolvable = config()
        resolvable.localIdentity = (identityIRK, BDAddress(littleEndian: [1, 2, 3, 4, 5, 0x45], kind: .random))
        var rpa = initiator(resolvable)
        guard case let .failed(.invalidConfiguration(why))? = rpa.start().first else { Issue.record("accepted"); return }
        #expect(why.contains("neither public nor random static"))
    }

    @Test func aShortRandomSourceIsAnInternalFailure() {
        var smp = SMPInitiator(config: config(), local: central, peer: radio, random: { _ in [1, 2, 3] })
        _ = smp.start()
        let actions = smp.handle(pdu: [0x02, 0x00, 0x00, 0x05, 16, 0x01, 0x03])  // legacy: needs a nonce now
        guard case .failed(.internalFailure)? = actions.last else { Issue.record("no failure: \(actions)"); return }
        #expect(actions.first == .send([0x05, 0x08]))
    }

    @Test func theSameSeedGivesTheSamePairing() throws {
        // Injected randomness and key make the initiator's side repeatable.
        var one = initiator(config(), seed: 1)
        var two = initiator(config(), seed: 1)
        let response: [UInt8] = [0x02, 0x00, 0x00, 0x05, 16, 0x01, 0x03]
        _ = (one.start(), two.start())
        #expect(one.handle(pdu: response) == two.handle(pdu: response))
        #expect(one.association == .passkeyEntry(initiatorDisplays: false))
    }
}
