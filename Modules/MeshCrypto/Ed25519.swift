/// Ed25519 as MeshCore firmware uses it (the orlp/ed25519 library): RFC 8032 signatures from a
/// 64-byte expanded private key, plus orlp's key exchange, which runs X25519 against a peer's
/// Ed25519 public key.
///
/// Not constant-time: meant for simulated nodes and for checking signatures, not for
/// production code that handles real secrets.
public enum Ed25519 {
    public static let seedSize = 32
    public static let publicKeySize = 32
    public static let privateKeySize = 64
    public static let signatureSize = 64
    public static let sharedSecretSize = 32

    /// A key pair. `privateKey` is MeshCore's exported form: the clamped scalar a
    /// (32 bytes) followed by the nonce prefix (the upper 32 bytes of SHA-512(seed)).
    public struct KeyPair: Hashable, Sendable, CustomStringConvertible {
        public let privateKey: [UInt8]
        public let publicKey: [UInt8]

        /// Expands a 32-byte seed: SHA-512(seed), the first half clamped into the scalar a.
        public init(seed: [UInt8]) throws(MeshCryptoError) {
            guard seed.count == Ed25519.seedSize else {
                throw .invalidLength(what: "Ed25519 seed", expected: Ed25519.seedSize, actual: seed.count)
            }
            var h = SHA512.hash(seed)
            h[0] &= 248
            h[31] &= 127
            h[31] |= 64
            try self.init(privateKey: h)
        }

        /// Takes a 64-byte expanded private key as is (MeshCore's import) and derives a·B.
        public init(privateKey: [UInt8]) throws(MeshCryptoError) {
            guard privateKey.count == Ed25519.privateKeySize else {
                throw .invalidLength(what: "Ed25519 private key", expected: Ed25519.privateKeySize, actual: privateKey.count)
            }
            self.privateKey = privateKey
            publicKey = EdwardsPoint.baseMultiple(Array(privateKey[0..<32])).encoded
        }

        /// A 64-byte signature R ‖ S: r = SHA-512(prefix ‖ M) mod L, R = r·B,
        /// k = SHA-512(R ‖ A ‖ M) mod L, S = (r + k·a) mod L.
        public func sign(_ message: [UInt8]) -> [UInt8] {
            var nonceHash = SHA512()
            nonceHash.update(privateKey[32..<64])
            nonceHash.update(message)
            let r = Scalar25519(reducing: nonceHash.finalize())
            let encodedR = EdwardsPoint.baseMultiple(r.bytes).encoded
            let k = Ed25519.challenge(encodedR, publicKey, message)
            let a = Scalar25519(reducing: privateKey[0..<32])
            return encodedR + Scalar25519.multiplyAdd(k, a, r).bytes
        }

        /// orlp's `ed25519_key_exchange`: the peer's Edwards y becomes the Montgomery
        /// u = (1 + y) / (1 − y), then X25519 with this key's scalar. Both sides of a pair get
        /// the same 32 bytes. Like the firmware it does not reject low-order peer keys (which
        /// give an all-zero secret); nil only when `publicKey` is not 32 bytes.
        public func keyExchange(publicKey peer: [UInt8]) -> [UInt8]? {
            guard peer.count == Ed25519.publicKeySize else { return nil }
            // Bit 255 (the sign of x) is ignored: u depends on y alone. For y = 1 the inverse of 0 is 0.
            let y = Field25519(bytes: peer)
            let u = (Field25519.one + y) * (Field25519.one - y).inverse()
            return X25519.ladder(scalar: Array(privateKey[0..<32]), u: u).bytes
        }

        public var description: String { "Ed25519.KeyPair(publicKey: \(hexString(publicKey)))" }
    }

    /// Checks a signature (RFC 8032 §5.1.7, cofactorless like orlp): S must be below L, A must
    /// decode to a curve point, and S·B − k·A must encode to R byte for byte.
    /// Stricter than orlp, which only rejects S with its top three bits set; no honest signer
    /// produces the extra S values this turns away.
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureSize, publicKey.count == publicKeySize else { return false }
        let encodedR = Array(signature[0..<32]), s = Array(signature[32..<64])
        guard Scalar25519.isCanonical(s), let a = EdwardsPoint(decoding: publicKey) else { return false }
        let k = challenge(encodedR, publicKey, message)
        return EdwardsPoint.doubleMultiple(k.bytes, a.negated, s).encoded == encodedR
    }

    /// k = SHA-512(R ‖ A ‖ M) mod L.
    private static func challenge(_ encodedR: [UInt8], _ publicKey: [UInt8], _ message: [UInt8]) -> Scalar25519 {
        var hash = SHA512()
        hash.update(encodedR)
        hash.update(publicKey)
        hash.update(message)
        return Scalar25519(reducing: hash.finalize())
    }
}
