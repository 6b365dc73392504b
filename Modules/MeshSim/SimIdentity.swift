import MeshCodec

/// Node identities. This increment does not generate Ed25519 key pairs: a public key is 32
/// bytes derived from the seed and a label with SHA-256, which is all a client can see of an
/// identity over the companion link. Signing, ECDH and private-key export need real keys and
/// come with them.
enum SimIdentity {
    static func publicKey(seed: UInt64, label: String) -> PublicKey {
        var counter: UInt8 = 0
        while true {
            var sha = SHA256()
            sha.update((0..<8).map { UInt8(truncatingIfNeeded: seed >> (8 * $0)) })
            sha.update(Array(label.utf8))
            sha.update([counter])
            let bytes = sha.finalize()
            // The firmware regenerates keys that start 0x00 or 0xFF (reserved node hashes).
            if bytes[0] != 0x00, bytes[0] != 0xFF, let key = PublicKey(bytes) { return key }
            counter &+= 1
        }
    }

    /// The firmware's default node name: the first 8 hex digits of the key, upper case.
    static func defaultName(_ key: PublicKey) -> String { String(key.hex.prefix(8)).uppercased() }
}
