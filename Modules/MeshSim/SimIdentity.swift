import MeshCodec
import MeshCrypto

/// Node identities: Ed25519 key pairs whose 32-byte seeds follow from the simulation seed
/// and a label, so a mesh reproduces key for key.
enum SimIdentity {
    static func keyPair(seed: UInt64, label: String) -> Ed25519.KeyPair {
        var counter: UInt8 = 0
        while true {
            var sha = SHA256()
            sha.update((0..<8).map { UInt8(truncatingIfNeeded: seed >> (8 * $0)) })
            sha.update(Array(label.utf8))
            sha.update([counter])
            let pair: Ed25519.KeyPair
            do {
                pair = try Ed25519.KeyPair(seed: sha.finalize())
            } catch {
                preconditionFailure("a SHA-256 digest is a 32-byte Ed25519 seed: \(error)")
            }
            // The firmware regenerates keys that start 0x00 or 0xFF (reserved node hashes).
            if isUsable(pair.publicKey) { return pair }
            counter &+= 1
        }
    }

    static func publicKey(seed: UInt64, label: String) -> PublicKey { publicKey(of: keyPair(seed: seed, label: label)) }

    static func isUsable(_ key: [UInt8]) -> Bool { key.first != 0x00 && key.first != 0xFF }

    static func publicKey(of pair: Ed25519.KeyPair) -> PublicKey {
        // Ed25519 public keys are 32 bytes by construction.
        PublicKey(pair.publicKey)!
    }

    /// The firmware's default node name: the first 8 hex digits of the key, upper case.
    static func defaultName(_ key: PublicKey) -> String { String(key.hex.prefix(8)).uppercased() }
}
