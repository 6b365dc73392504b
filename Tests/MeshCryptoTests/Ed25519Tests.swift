import Testing
@testable import MeshCrypto

/// An RFC 8032 §7.1 test vector (Ed25519, no context).
struct SignatureVector: Sendable, CustomTestStringConvertible {
    let name: String
    let seed: String
    let publicKey: String
    let message: String
    let signature: String
    var testDescription: String { name }
}

let rfc8032Vectors: [SignatureVector] = [
    SignatureVector(
        name: "TEST 1",
        seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        message: "",
        signature: """
            e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155\
            5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b
            """),
    SignatureVector(
        name: "TEST 2",
        seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        message: "72",
        signature: """
            92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da\
            085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00
            """),
    SignatureVector(
        name: "TEST 3",
        seed: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        publicKey: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        message: "af82",
        signature: """
            6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac\
            18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a
            """),
    SignatureVector(
        name: "TEST 1024",
        seed: "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
        publicKey: "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
        message: """
            08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1\
            e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d\
            658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a\
            7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e\
            06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10\
            3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1\
            85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d\
            502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270\
            88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089b\
            eccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba\
            b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969b\
            e3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7\
            51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988d\
            cda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df\
            f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7\
            984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4\
            88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac09\
            43bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f\
            b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f161\
            0e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d\
            b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8ca\
            c60c905c15fc910840b94c00a0b9d0
            """,
        signature: """
            0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350\
            aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03
            """),
    SignatureVector(
        name: "TEST SHA(abc)",
        seed: "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
        publicKey: "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
        // The message is SHA-512("abc").
        message: """
            ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
            2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
            """,
        signature: """
            dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589\
            09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704
            """),
]

@Suite struct Ed25519Tests {
    @Test(arguments: rfc8032Vectors)
    func rfc8032(_ v: SignatureVector) throws {
        let pair = try Ed25519.KeyPair(seed: bytes(v.seed))
        #expect(hex(pair.publicKey) == v.publicKey)
        let signature = pair.sign(bytes(v.message))
        #expect(hex(signature) == v.signature)
        #expect(Ed25519.verify(signature: bytes(v.signature), message: bytes(v.message), publicKey: bytes(v.publicKey)))
    }

    @Test func expandedPrivateKeyLayout() throws {
        let seed = bytes(rfc8032Vectors[0].seed)
        let pair = try Ed25519.KeyPair(seed: seed)
        var expected = SHA512.hash(seed)
        expected[0] &= 248
        expected[31] = expected[31] & 127 | 64
        #expect(pair.privateKey == expected)
        #expect(pair.privateKey.count == 64)
    }

    @Test func privateKeyImportMatchesSeed() throws {
        for v in rfc8032Vectors {
            let fromSeed = try Ed25519.KeyPair(seed: bytes(v.seed))
            let imported = try Ed25519.KeyPair(privateKey: fromSeed.privateKey)
            #expect(imported == fromSeed)
            #expect(imported.sign([1, 2, 3]) == fromSeed.sign([1, 2, 3]))
        }
    }

    @Test func badLengthsThrow() {
        #expect(throws: MeshCryptoError.invalidLength(what: "Ed25519 seed", expected: 32, actual: 31)) {
            try Ed25519.KeyPair(seed: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: MeshCryptoError.invalidLength(what: "Ed25519 private key", expected: 64, actual: 32)) {
            try Ed25519.KeyPair(privateKey: [UInt8](repeating: 1, count: 32))
        }
        #expect(throws: MeshCryptoError.self) { try Ed25519.KeyPair(privateKey: []) }
        let error = MeshCryptoError.invalidLength(what: "Ed25519 private key", expected: 64, actual: 65)
        #expect(error.description == "Ed25519 private key must be 64 bytes, got 65")
    }

    @Test func roundTripAndTampering() throws {
        var rng = SplitMix(seed: 0x5EED)
        for length in [0, 1, 31, 64, 127, 128, 200] {
            let pair = try Ed25519.KeyPair(seed: rng.bytes(32))
            let message = rng.bytes(length)
            let signature = pair.sign(message)
            #expect(signature.count == 64)
            #expect(Ed25519.verify(signature: signature, message: message, publicKey: pair.publicKey))
            // Deterministic: the same message signs the same way.
            #expect(pair.sign(message) == signature)
            for bit in [0, 7, 100, 255, 256, 300, 511] {
                #expect(!Ed25519.verify(signature: flipping(signature, bit: bit), message: message, publicKey: pair.publicKey),
                        "signature bit \(bit)")
            }
            for bit in [0, 8, 200, 254, 255] {
                #expect(!Ed25519.verify(signature: signature, message: message, publicKey: flipping(pair.publicKey, bit: bit)),
                        "public key bit \(bit)")
            }
            if length > 0 {
                for bit in [0, length * 8 - 1] {
                    #expect(!Ed25519.verify(signature: signature, message: flipping(message, bit: bit), publicKey: pair.publicKey),
                            "message bit \(bit)")
                }
            }
            #expect(!Ed25519.verify(signature: signature, message: message + [0], publicKey: pair.publicKey))
        }
    }

    @Test func wrongLengthsDoNotVerify() throws {
        let pair = try Ed25519.KeyPair(seed: [UInt8](repeating: 7, count: 32))
        let signature = pair.sign([42])
        #expect(!Ed25519.verify(signature: Array(signature.dropLast()), message: [42], publicKey: pair.publicKey))
        #expect(!Ed25519.verify(signature: signature + [0], message: [42], publicKey: pair.publicKey))
        #expect(!Ed25519.verify(signature: signature, message: [42], publicKey: Array(pair.publicKey.dropLast())))
    }

    /// S + L is the same scalar mod L; RFC 8032 (and this module) refuse it as malleable.
    @Test func rejectsUnreducedS() throws {
        let v = rfc8032Vectors[1]
        let signature = bytes(v.signature)
        var s = Array(signature[32..<64])
        var carry = 0
        let order = Scalar25519.order.flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
        for i in 0..<32 {
            let sum = Int(s[i]) + Int(order[i]) + carry
            s[i] = UInt8(sum & 0xFF)
            carry = sum >> 8
        }
        #expect(carry == 0)
        #expect(!Ed25519.verify(signature: Array(signature[0..<32]) + s, message: bytes(v.message), publicKey: bytes(v.publicKey)))
        #expect(!Scalar25519.isCanonical(order))
        #expect(Scalar25519.isCanonical(Scalar25519(reducing: order).bytes))
    }

    @Test func rejectsPublicKeysOffTheCurve() {
        let v = rfc8032Vectors[0]
        // y = 2 has no x on the curve.
        let offCurve = [2] + [UInt8](repeating: 0, count: 31)
        #expect(EdwardsPoint(decoding: offCurve) == nil)
        #expect(!Ed25519.verify(signature: bytes(v.signature), message: [], publicKey: offCurve))
        // y = p (non-canonical encoding of 0) and x = 0 with the sign bit set.
        let p = [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
        #expect(EdwardsPoint(decoding: p) == nil)
        #expect(EdwardsPoint(decoding: [1] + [UInt8](repeating: 0, count: 30) + [0x80]) == nil)
        #expect(EdwardsPoint(decoding: [1] + [UInt8](repeating: 0, count: 31)) != nil)
    }

    @Test func keyExchangeIsSymmetric() throws {
        var rng = SplitMix(seed: 0xD1FF1E)
        for _ in 0..<8 {
            let alice = try Ed25519.KeyPair(seed: rng.bytes(32))
            let bob = try Ed25519.KeyPair(seed: rng.bytes(32))
            let ab = try #require(alice.keyExchange(publicKey: bob.publicKey))
            let ba = try #require(bob.keyExchange(publicKey: alice.publicKey))
            #expect(ab == ba)
            #expect(ab.count == 32)
            #expect(ab != [UInt8](repeating: 0, count: 32))
        }
        let pair = try Ed25519.KeyPair(seed: [UInt8](repeating: 3, count: 32))
        #expect(pair.keyExchange(publicKey: [1, 2, 3]) == nil)
    }

    /// The key exchange equals X25519 of the clamped scalar and u = (1 + y) / (1 − y).
    @Test func keyExchangeIsX25519OfTheMontgomeryU() throws {
        let alice = try Ed25519.KeyPair(seed: bytes(rfc8032Vectors[0].seed))
        let bob = try Ed25519.KeyPair(seed: bytes(rfc8032Vectors[1].seed))
        // Bob's Montgomery public key, X25519(b, 9), is the u of his Edwards key.
        let bobU = try X25519.scalarMultiply(scalar: Array(bob.privateKey[0..<32]), u: X25519.basePoint)
        let y = Field25519(bytes: bob.publicKey)
        #expect(((Field25519.one + y) * (Field25519.one - y).inverse()).bytes == bobU)
        let expected = try X25519.scalarMultiply(scalar: Array(alice.privateKey[0..<32]), u: bobU)
        #expect(alice.keyExchange(publicKey: bob.publicKey) == expected)
    }

    @Test func descriptionShowsOnlyThePublicKey() throws {
        let pair = try Ed25519.KeyPair(seed: bytes(rfc8032Vectors[0].seed))
        #expect(pair.description == "Ed25519.KeyPair(publicKey: \(rfc8032Vectors[0].publicKey))")
    }
}

/// Deterministic test bytes (SplitMix64), so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
