import Crypto

/// A P-256 key pair for LE Secure Connections, with coordinates and the DHKey least
/// significant byte first as Pairing Public Key PDUs and f4/f5 take them (swift-crypto writes
/// them most significant byte first). Kept as bytes so that it is Sendable.
public struct SMPKeyPair: Sendable {
    /// The private scalar as swift-crypto's raw representation (most significant byte first).
    private let scalar: [UInt8]
    /// The public key's X coordinate, 32 bytes.
    public let x: [UInt8]
    /// The public key's Y coordinate, 32 bytes.
    public let y: [UInt8]

    public init(_ privateKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()) {
        scalar = Array(privateKey.rawRepresentation)
        let point = Array(privateKey.publicKey.rawRepresentation)
        x = point[0..<32].reversed()
        y = point[32..<64].reversed()
    }

    /// The DHKey (the shared point's X coordinate, 32 bytes) with the peer's public key. A
    /// point that is not on P-256 (or a coordinate not below p) is refused: using it would leak
    /// the private key (the invalid-curve attack on pairing).
    public func dhKey(peerX: [UInt8], peerY: [UInt8]) throws(SMPKeyError) -> [UInt8] {
        guard peerX.count == 32, peerY.count == 32 else { throw .notOnCurve }
        let peer: P256.KeyAgreement.PublicKey
        do {
            peer = try P256.KeyAgreement.PublicKey(rawRepresentation: Array(peerX.reversed()) + Array(peerY.reversed()))
        } catch {
            throw .notOnCurve
        }
        do {
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            let secret = try key.sharedSecretFromKeyAgreement(with: peer)
            return secret.withUnsafeBytes { Array($0.reversed()) }
        } catch {
            throw .agreementFailed("\(error)")
        }
    }
}

/// ECDH with the peer's public key failed.
public enum SMPKeyError: Error, Equatable, Sendable {
    /// The peer's public key is not a point on P-256.
    case notOnCurve
    /// The key agreement itself failed (with a valid point this does not happen).
    case agreementFailed(String)
}
