import Testing
@testable import MeshCrypto

/// FIPS 180-4 example vectors (NIST CSRC "SHA-512" examples).
@Suite struct SHA512Tests {
    @Test func abc() {
        #expect(hex(SHA512.hash(Array("abc".utf8))) == """
            ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
            2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
            """)
    }

    @Test func empty() {
        #expect(hex(SHA512.hash([UInt8]())) == """
            cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
            47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e
            """)
    }

    /// 896 bits: the padding no longer fits the first block, so a second one follows.
    @Test func twoBlockMessage() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(hex(SHA512.hash(Array(message.utf8))) == """
            8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018\
            501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909
            """)
    }

    /// One million 'a', fed in uneven pieces so partial blocks carry across updates.
    @Test func millionA() {
        var hasher = SHA512()
        var left = 1_000_000, piece = 1
        while left > 0 {
            let n = min(piece, left)
            hasher.update([UInt8](repeating: 0x61, count: n))
            left -= n
            piece = piece * 3 % 1_000 + 1
        }
        #expect(hex(hasher.finalize()) == """
            e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb\
            de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b
            """)
    }

    @Test func streamingMatchesOneShot() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for split in [0, 1, 111, 112, 127, 128, 129, 255, 256, 300] {
            var hasher = SHA512()
            hasher.update(message[..<split])
            hasher.update(message[split...].lazy.map { $0 })   // a non-contiguous sequence
            #expect(hasher.finalize() == SHA512.hash(message), "split at \(split)")
        }
    }

    /// finalize leaves the hasher usable: a later digest covers the longer message.
    @Test func finalizeDoesNotConsume() {
        var hasher = SHA512()
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize() == SHA512.hash(Array("ab".utf8)))
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize() == SHA512.hash(Array("abc".utf8)))
    }
}
