import MeshCodec

/// Another node of the simulated mesh, as the air sees it: how far it is and by which
/// repeaters, independent of whether the radio holds it as a contact.
public struct SimNode: Hashable, Sendable {
    public var publicKey: PublicKey
    public var name: String
    public var type: NodeType
    public var position: Coordinates
    /// Hop hashes of the repeaters between the radio and this node (empty: zero-hop).
    public var route: [UInt8]

    public init(publicKey: PublicKey, name: String, type: NodeType, position: Coordinates = .zero, route: [UInt8] = []) {
        self.publicKey = publicKey
        self.name = name
        self.type = type
        self.position = position
        self.route = route
    }

    public var hops: Int { route.count }

    /// The path a path-return teaches the radio: the route with 1-byte hop hashes.
    var path: Path { Path(length: PathLength(hops: min(route.count, 63)) ?? .none, bytes: Array(route.prefix(63))) }
}
