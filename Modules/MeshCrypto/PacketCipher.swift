import Crypto
import _CryptoExtras

/// How MeshCore seals packet payloads ("encrypt then MAC", Docs/protocol.md §9): AES-128-ECB with
/// the first 16 bytes of the secret over the plaintext zero-padded to whole blocks, then a
/// 2-byte MAC, the start of HMAC-SHA256 keyed with the secret (zero-extended to 32 bytes)
/// over the ciphertext. The MAC comes first. DMs use the 32-byte ECDH secret of the two
/// keys; channels their 16- or 32-byte secret.
public enum PacketCipher {
    public static let macSize = 2
    public static let blockSize = 16

    /// MAC ‖ ciphertext of `plain`.
    public static func seal(_ plain: [UInt8], secret: [UInt8]) throws(MeshCryptoError) -> [UInt8] {
        let key = try aesKey(secret)
        var data = plain + [UInt8](repeating: 0, count: (blockSize - plain.count % blockSize) % blockSize)
        do {
            for start in stride(from: 0, to: data.count, by: blockSize) { try AES.permute(&data[start..<start + blockSize], key: key) }
        } catch {
            throw .cipherFailed(reason: "\(error)")
        }
        return mac(data, secret: secret) + data
    }

    /// The zero-padded plaintext of a sealed payload, after checking its MAC.
    public static func open(_ sealed: ArraySlice<UInt8>, secret: [UInt8]) throws(MeshCryptoError) -> [UInt8] {
        guard sealed.count > macSize else { throw .invalidLength(what: "sealed payload", expected: macSize + blockSize, actual: sealed.count) }
        var data = Array(sealed.dropFirst(macSize))
        guard data.count % blockSize == 0 else { throw .partialBlock(length: data.count) }
        guard mac(data, secret: secret) == Array(sealed.prefix(macSize)) else { throw .macMismatch }
        let key = try aesKey(secret)
        do {
            for start in stride(from: 0, to: data.count, by: blockSize) { try AES.inversePermute(&data[start..<start + blockSize], key: key) }
        } catch {
            throw .cipherFailed(reason: "\(error)")
        }
        return data
    }

    private static func aesKey(_ secret: [UInt8]) throws(MeshCryptoError) -> SymmetricKey {
        guard secret.count >= blockSize else { throw .invalidLength(what: "packet secret", expected: blockSize, actual: secret.count) }
        return SymmetricKey(data: secret.prefix(blockSize))
    }

    private static func mac(_ ciphertext: [UInt8], secret: [UInt8]) -> [UInt8] {
        // HMAC pads a short key with zeros itself, so a 16-byte channel secret needs no extending.
        Array(HMAC<SHA256>.authenticationCode(for: ciphertext, using: SymmetricKey(data: secret.prefix(32))).prefix(macSize))
    }
}
