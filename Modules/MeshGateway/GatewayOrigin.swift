import MeshCodec

/// The radio a gateway speaks for, as every message names it: `origin` (its name) and
/// `origin_id` (its public key, upper-case hex).
public struct GatewayOrigin: Hashable, Sendable {
    public let name: String
    public let publicKey: PublicKey
    /// Spelled once: every packet message carries it.
    public let id: String

    public init(name: String, publicKey: PublicKey) {
        self.name = name
        self.publicKey = publicKey
        id = GatewayTopics.keyHex(publicKey)
    }

    public init(_ info: SelfInfo) {
        self.init(name: info.name, publicKey: info.publicKey)
    }
}
