import MeshCodec

/// The radio a gateway speaks for, as every message names it: `origin` (its name) and
/// `origin_id` (its public key, upper-case hex).
public struct GatewayOrigin: Hashable, Sendable {
    public var name: String
    public var publicKey: PublicKey

    public init(name: String, publicKey: PublicKey) {
        self.name = name
        self.publicKey = publicKey
    }

    public init(_ info: SelfInfo) {
        self.init(name: info.name, publicKey: info.publicKey)
    }

    public var id: String { GatewayTopics.keyHex(publicKey) }
}
