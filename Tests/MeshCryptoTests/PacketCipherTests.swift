import MeshCodec
import MeshCrypto
import Testing

/// Packet sealing against published vectors: AES-128 from FIPS-197 appendix C.1, the MAC
/// against HMAC-SHA256 built here from its definition (RFC 2104) on MeshCodec's SHA-256.
@Suite struct PacketCipherTests {
    static let fipsKey: [UInt8] = Array(0x00...0x0F)
    static let fipsPlain: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
    static let fipsCipher: [UInt8] = [0x69, 0xC4, 0xE0, 0xD8, 0x6A, 0x7B, 0x04, 0x30, 0xD8, 0xCD, 0xB7, 0x80, 0x70, 0xB4, 0xC5, 0x5A]

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let k = key + [UInt8](repeating: 0, count: 64 - key.count)
        let inner = SHA256.hash(k.map { $0 ^ 0x36 } + message)
        return SHA256.hash(k.map { $0 ^ 0x5C } + inner)
    }

    @Test func sealsWithAES128ECBThenATwoByteHMAC() throws {
        // Two blocks with the same plaintext: ECB gives the same ciphertext twice.
        let sealed = try PacketCipher.seal(Self.fipsPlain + Self.fipsPlain, secret: Self.fipsKey)
        #expect(Array(sealed.dropFirst(2)) == Self.fipsCipher + Self.fipsCipher)
        #expect(Array(sealed.prefix(2)) == Array(Self.hmacSHA256(key: Self.fipsKey, Self.fipsCipher + Self.fipsCipher).prefix(2)))
    }

    @Test func aThirtyTwoByteSecretKeysAESWithItsFirstHalfAndTheMACWithAllOfIt() throws {
        let secret = Self.fipsKey + Array(0xF0...0xFF)
        let sealed = try PacketCipher.seal(Self.fipsPlain, secret: secret)
        #expect(Array(sealed.dropFirst(2)) == Self.fipsCipher)
        #expect(Array(sealed.prefix(2)) == Array(Self.hmacSHA256(key: secret, Self.fipsCipher).prefix(2)))
    }

    @Test func shortPlaintextIsZeroPaddedAndOpensBack() throws {
        let plain = Array("hi there".utf8)
        let sealed = try PacketCipher.seal(plain, secret: Self.fipsKey)
        #expect(sealed.count == 2 + 16)
        #expect(try PacketCipher.open(sealed[...], secret: Self.fipsKey) == plain + [UInt8](repeating: 0, count: 8))
    }

    @Test func badInputIsATypedError() throws {
        let sealed = try PacketCipher.seal(Self.fipsPlain, secret: Self.fipsKey)
        var damaged = sealed
        damaged[5] ^= 1
        #expect(throws: MeshCryptoError.macMismatch) { try PacketCipher.open(damaged[...], secret: Self.fipsKey) }
        #expect(throws: MeshCryptoError.macMismatch) { try PacketCipher.open(sealed[...], secret: Array(repeating: 7, count: 16)) }
        #expect(throws: MeshCryptoError.partialBlock(length: 15)) { try PacketCipher.open(sealed.dropLast(), secret: Self.fipsKey) }
        #expect(throws: MeshCryptoError.invalidLength(what: "sealed payload", expected: 18, actual: 2)) { try PacketCipher.open(sealed.prefix(2), secret: Self.fipsKey) }
        #expect(throws: MeshCryptoError.invalidLength(what: "packet secret", expected: 16, actual: 8)) { try PacketCipher.seal([1], secret: Array(repeating: 1, count: 8)) }
    }
}
