import MeshCodec
import MeshCrypto

/// Another node of the simulated mesh, as the air sees it: how far it is and by which
/// repeaters, independent of whether the radio holds it as a contact.
public struct SimNode: Hashable, Sendable {
    public var publicKey: PublicKey
    public var name: String
    public var type: NodeType
    public var position: Coordinates
    /// Hop hashes of the repeaters between the radio and this node (empty: zero-hop).
    public var route: [UInt8]
    /// Repeaters, room servers and sensors: logins and requests (nil: a chat companion).
    public var server: SimServer?
    /// Sensor readings it reports to a telemetry request, after its battery voltage.
    public var sensors: [LPPRecord]
    /// Battery, reported by status and telemetry.
    public var batteryMillivolts: UInt16
    /// Chat companions answer telemetry only when their owner allowed it (mode 0 refuses,
    /// the firmware's default); servers always answer a logged-in client.
    public var answersTelemetry: Bool
    /// Its key pair, for signing its adverts (nil when a scenario gave only a public key).
    public var identity: Ed25519.KeyPair?
    /// Direct packets never reach it (a stale path): a DM sent to it direct gets no ACK, one
    /// sent flood still does. Retry tests use it.
    public var dropsDirect = false
    /// Extra time its ACKs take to come back (a busy node), so one can arrive after the
    /// sender's timeout.
    public var ackDelay: Duration = .zero

    public init(publicKey: PublicKey, name: String, type: NodeType, position: Coordinates = .zero, route: [UInt8] = [],
                server: SimServer? = nil, sensors: [LPPRecord] = [], batteryMillivolts: UInt16 = 3950, answersTelemetry: Bool = false,
                identity: Ed25519.KeyPair? = nil) {
        self.identity = identity
        self.publicKey = publicKey
        self.name = name
        self.type = type
        self.position = position
        self.route = route
        self.server = server ?? SimServer.defaults(for: type)
        self.sensors = sensors
        self.batteryMillivolts = batteryMillivolts
        self.answersTelemetry = answersTelemetry
    }

    /// A node of the mesh with a key pair derived from the simulation seed and `label`.
    public init(seed: UInt64, label: String, name: String, type: NodeType, position: Coordinates = .zero, route: [UInt8] = []) {
        let pair = SimIdentity.keyPair(seed: seed, label: label)
        self.init(publicKey: SimIdentity.publicKey(of: pair), name: name, type: type, position: position, route: route, identity: pair)
    }

    public var hops: Int { route.count }

    /// The path a path-return teaches the radio: the route with 1-byte hop hashes.
    var path: Path { Path(length: PathLength(hops: min(route.count, 63)) ?? .none, bytes: Array(route.prefix(63))) }

    /// The path its answers travel back on: the route reversed.
    var returnPath: Path { Path(length: path.length, bytes: path.bytes.reversed()) }
}
