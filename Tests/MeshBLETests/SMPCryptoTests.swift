@testable import MeshBLE
import Testing

/// The Security Manager's functions against the Core specification's sample data
/// (Vol 3 Part H Appendix D; c1 and s1 from 2.2.3 and 2.2.4) and RFC 4493's AES-CMAC vectors.
@Suite struct SMPCryptoTests {
    private func h(_ s: String) -> [UInt8] {
        let hex = Array(s.filter { !$0.isWhitespace })
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0..<($0 + 2)]), radix: 16)! }
    }

    @Test func aesCMAC() {
        let key = h("2b7e1516 28aed2a6 abf71588 09cf4f3c")
        let m = h("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710")
        #expect(SMPCrypto.cmac(key, []) == h("bb1d6929 e9593728 7fa37d12 9b756746"))
        #expect(SMPCrypto.cmac(key, Array(m[0..<16])) == h("070a16b4 6b4d4144 f79bdd9d d04a287c"))
        #expect(SMPCrypto.cmac(key, Array(m[0..<40])) == h("dfa66747 de9ae630 30ca3261 1497c827"))
        #expect(SMPCrypto.cmac(key, m) == h("51f0bebf 7e3b9d92 fc497417 79363cfe"))
    }

    let u = "20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6"
    let v = "55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd"
    let n1 = "d5cb8454 d177733e ffffb2ec 712baeab"
    let n2 = "a6e8e7cc 25a75f6e 216583f7 ff3dc4cf"
    let a1 = "00561237 37bfce"
    let a2 = "00a71370 2dcfc1"

    @Test func f4() {
        #expect(SMPCrypto.f4(h(u), h(v), h(n1), 0x00) == h("f2c916f1 07a9bd1c f1eda1be a974872d"))
    }

    @Test func f5() {
        let w = h("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")
        let (macKey, ltk) = SMPCrypto.f5(w, h(n1), h(n2), h(a1), h(a2))
        #expect(macKey == h("2965f176 a1084a02 fd3f6a20 ce636e20"))
        #expect(ltk == h("69867911 69d7cd23 980522b5 94750a38"))
    }

    @Test func f6() {
        let check = SMPCrypto.f6(h("2965f176 a1084a02 fd3f6a20 ce636e20"), h(n1), h(n2), h("12a3343b b453bb54 08da42d2 0c2d0fc8"),
                                 h("010102"), h(a1), h(a2))
        #expect(check == h("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    @Test func g2() {
        #expect(SMPCrypto.g2(h(u), h(v), h(n1), h(n2)) == 0x2F9E_D5BA)
    }

    @Test func ah() {
        #expect(SMPCrypto.ah(h("ec0234a3 57c8ad05 341010a6 0a397d9b"), h("708194")) == h("0dfbaa"))
    }

    @Test func c1() {
        // The PDUs as sent: code first (preq 07071000000101 written most significant first).
        let preq: [UInt8] = [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07]
        let pres: [UInt8] = [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05]
        let confirm = SMPCrypto.c1([UInt8](repeating: 0, count: 16), h("5783D52156AD6F0E6388274EC6702EE0"), preq: preq, pres: pres,
                                   iat: 1, rat: 0, ia: h("A1A2A3A4A5A6"), ra: h("B1B2B3B4B5B6"))
        #expect(confirm == h("1e1e3fef878988ead2a74dc5bef13b86"))
    }

    @Test func s1() {
        let stk = SMPCrypto.s1([UInt8](repeating: 0, count: 16), h("000F0E0D0C0B0A091122334455667788"), h("010203040506070899AABBCCDDEEFF00"))
        #expect(stk == h("9a1fe1f0e8b0f49b5b4216ae796da062"))
    }
}
