import Crypto
@testable import MeshBLE
import Testing

/// The Security Manager's functions against published sample data, typed as published (most
/// significant byte first) and reversed into the API's least-significant-first order:
/// RFC 4493 2.4 for AES-CMAC, Core Vol 3 Part H Appendix D (D.1 P-256, D.2 f4, D.3 f5, D.4 f6,
/// D.5 g2, D.7 ah) and the c1 and s1 examples of 2.2.3 and 2.2.4.
@Suite struct SMPCryptoTests {
    private func le(_ hex: String) -> [UInt8] { SMPSample.le(hex) }

    // Appendix D's values, shared by several functions.
    let u = "20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6"
    let v = "55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd"
    let n1 = "d5cb8454 d177733e ffffb2ec 712baeab"
    let n2 = "a6e8e7cc 25a75f6e 216583f7 ff3dc4cf"
    let dhKey = "ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698"
    let macKey = "2965f176 a1084a02 fd3f6a20 ce636e20"
    // A1 = 00561237 37bfce, A2 = 00a71370 2dcfc1: type byte 0 (public), then the address.
    var a1: BDAddress { BDAddress(littleEndian: le("561237 37bfce"), kind: .public) }
    var a2: BDAddress { BDAddress(littleEndian: le("a71370 2dcfc1"), kind: .public) }

    @Test func aesCMACMatchesRFC4493() throws {
        let key = le("2b7e1516 28aed2a6 abf71588 09cf4f3c")
        let message = "6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51"
            + "30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710"
        let m = SMPSample.msb(message)
        // Examples 1-4: 0, 16, 40 and 64 bytes.
        #expect(try SMPCrypto.cmac(key, []) == le("bb1d6929 e9593728 7fa37d12 9b756746"))
        #expect(try SMPCrypto.cmac(key, m[0..<16].reversed()) == le("070a16b4 6b4d4144 f79bdd9d d04a287c"))
        #expect(try SMPCrypto.cmac(key, m[0..<40].reversed()) == le("dfa66747 de9ae630 30ca3261 1497c827"))
        #expect(try SMPCrypto.cmac(key, m.reversed()) == le("51f0bebf 7e3b9d92 fc497417 79363cfe"))
    }

    @Test func f4MatchesD2() throws {
        #expect(try SMPCrypto.f4(le(u), le(v), le(n1), 0x00) == le("f2c916f1 07a9bd1c f1eda1be a974872d"))
    }

    @Test func f5MatchesD3() throws {
        let (mac, ltk) = try SMPCrypto.f5(le(dhKey), le(n1), le(n2), a1, a2)
        #expect(mac == le(macKey))
        #expect(ltk == le("69867911 69d7cd23 980522b5 94750a38"))
    }

    @Test func f6MatchesD4() throws {
        // IOcap 010102 written most significant first: AuthReq 01, OOB 01, IO capability 02.
        let ioCap = le("010102")
        #expect(ioCap == [0x02, 0x01, 0x01])
        let check = try SMPCrypto.f6(le(macKey), le(n1), le(n2), le("12a3343b b453bb54 08da42d2 0c2d0fc8"), ioCap, a1, a2)
        #expect(check == le("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    @Test func f6TakesIOCapInPDUOrder() throws {
        let features = PairingFeatures(ioCapability: .keyboardOnly, oobDataPresent: true, authReq: .bonding, initiatorKeys: [], responderKeys: [])
        #expect(features.ioCap == le("010102"))
    }

    @Test func g2MatchesD5() throws {
        #expect(try SMPCrypto.g2(le(u), le(v), le(n1), le(n2)) == 0x2F9E_D5BA)
    }

    @Test func ahMatchesD7() throws {
        #expect(try SMPCrypto.ah(le("ec0234a3 57c8ad05 341010a6 0a397d9b"), le("708194")) == le("0dfbaa"))
    }

    @Test func c1MatchesTheLegacyExample() throws {
        // 2.2.3: preq 07071000000101 and pres 05000800000302 are written most significant
        // first; as sent they start with their code (01, 02).
        let preq = le("07071000000101"), pres = le("05000800000302")
        #expect(preq.first == SMPPDU.Code.pairingRequest && pres.first == SMPPDU.Code.pairingResponse)
        let ia = BDAddress(littleEndian: le("A1A2A3A4A5A6"), kind: .random)  // iat = 1
        let ra = BDAddress(littleEndian: le("B1B2B3B4B5B6"), kind: .public)  // rat = 0
        let confirm = try SMPCrypto.c1([UInt8](repeating: 0, count: 16), le("5783D52156AD6F0E6388274EC6702EE0"),
                                       preq: preq, pres: pres, initiator: ia, responder: ra)
        #expect(confirm == le("1e1e3fef878988ead2a74dc5bef13b86"))
    }

    @Test func s1MatchesTheLegacyExample() throws {
        let stk = try SMPCrypto.s1([UInt8](repeating: 0, count: 16), le("000F0E0D0C0B0A091122334455667788"), le("010203040506070899AABBCCDDEEFF00"))
        #expect(stk == le("9a1fe1f0e8b0f49b5b4216ae796da062"))
    }

    @Test func p256MatchesD1() throws {
        let privateA = SMPSample.msb("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd")
        let privateB = SMPSample.msb("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
        let a = SMPKeyPair(try P256.KeyAgreement.PrivateKey(rawRepresentation: privateA))
        let b = SMPKeyPair(try P256.KeyAgreement.PrivateKey(rawRepresentation: privateB))
        // Coordinates come out least significant byte first, as Pairing Public Key carries them.
        #expect(a.x == le(u))
        #expect(a.y == le("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b"))
        #expect(b.x == le("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190"))
        #expect(b.y == le("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a"))
        #expect(try a.dhKey(peerX: b.x, peerY: b.y) == le(dhKey))
        #expect(try b.dhKey(peerX: a.x, peerY: a.y) == le(dhKey))
    }

    @Test func pointsOffTheCurveAreRefused() {
        let key = SMPKeyPair()
        #expect(throws: SMPKeyError.notOnCurve) { try key.dhKey(peerX: [UInt8](repeating: 1, count: 32), peerY: [UInt8](repeating: 1, count: 32)) }
        // A valid X with a Y that does not belong to it.
        var y = key.y
        y[0] ^= 1
        #expect(throws: SMPKeyError.notOnCurve) { try key.dhKey(peerX: key.x, peerY: y) }
        #expect(throws: SMPKeyError.notOnCurve) { try key.dhKey(peerX: [UInt8](repeating: 0xFF, count: 32), peerY: key.y) }
        #expect(throws: SMPKeyError.notOnCurve) { try key.dhKey(peerX: [1, 2], peerY: key.y) }
    }

    @Test func wrongLengthsAreTypedErrors() {
        #expect(throws: SMPCryptoError(function: "f4", argument: "X", expected: 16, actual: 15)) {
            try SMPCrypto.f4(le(u), le(v), [UInt8](repeating: 0, count: 15), 0)
        }
        #expect(throws: SMPCryptoError(function: "c1", argument: "preq", expected: 7, actual: 6)) {
            try SMPCrypto.c1([UInt8](repeating: 0, count: 16), [UInt8](repeating: 0, count: 16), preq: [1, 2, 3, 4, 5, 6],
                             pres: [UInt8](repeating: 0, count: 7), initiator: a1, responder: a2)
        }
        #expect(throws: SMPCryptoError.self) { try SMPCrypto.e([], []) }
        #expect(throws: SMPCryptoError.self) { try SMPCrypto.ah([UInt8](repeating: 0, count: 16), [1, 2]) }
        #expect(SMPCryptoError(function: "f4", argument: "X", expected: 16, actual: 15).description == "SMP f4: X is 15 bytes, it must be 16")
    }
}
