import Testing
@testable import MeshCrypto

/// RFC 7748 §5.2 and §6.1.
@Suite struct X25519Tests {
    @Test(arguments: [
        ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
        // This u has bit 255 set, which X25519 must ignore.
        ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
    ])
    func rfc7748Vectors(scalar: String, u: String, expected: String) throws {
        #expect(hex(try X25519.scalarMultiply(scalar: bytes(scalar), u: bytes(u))) == expected)
    }

    /// k = u = 9, then k ← X25519(k, u), u ← old k: the results after 1 and 1,000 iterations.
    @Test func iterated() throws {
        var k = X25519.basePoint, u = X25519.basePoint
        for iteration in 1...1_000 {
            (k, u) = (try X25519.scalarMultiply(scalar: k, u: u), k)
            if iteration == 1 { #expect(hex(k) == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079") }
        }
        #expect(hex(k) == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    }

    @Test func diffieHellman() throws {
        let alicePrivate = bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let bobPrivate = bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        let alicePublic = try X25519.scalarMultiply(scalar: alicePrivate, u: X25519.basePoint)
        let bobPublic = try X25519.scalarMultiply(scalar: bobPrivate, u: X25519.basePoint)
        #expect(hex(alicePublic) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(hex(bobPublic) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(hex(try X25519.scalarMultiply(scalar: alicePrivate, u: bobPublic)) == shared)
        #expect(hex(try X25519.scalarMultiply(scalar: bobPrivate, u: alicePublic)) == shared)
    }

    @Test func badLengthsThrow() {
        #expect(throws: MeshCryptoError.invalidLength(what: "X25519 scalar", expected: 32, actual: 33)) {
            try X25519.scalarMultiply(scalar: [UInt8](repeating: 1, count: 33), u: X25519.basePoint)
        }
        #expect(throws: MeshCryptoError.invalidLength(what: "X25519 u-coordinate", expected: 32, actual: 0)) {
            try X25519.scalarMultiply(scalar: X25519.basePoint, u: [])
        }
    }
}
