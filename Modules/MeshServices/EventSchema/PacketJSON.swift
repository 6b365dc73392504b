import MeshCodec
import MeshStore

/// A heard packet as events, `meshport packets --json` and the server's packet log show it:
/// what arrived (`raw`, hex: authoritative), how well (`snr` in dB, `rssi` in dBm), its hash
/// (the community's 16 hex digits), its parts, and what it is (`kind` and the fields that kind
/// has). `id` is there once it is stored.
public struct PacketJSON: Codable, Hashable, Sendable {
    public var id: Int64?
    public var heardAt: String
    public var snr: Double
    public var rssi: Int
    public var hash: String
    public var payloadType: String
    public var route: String
    /// Hop hashes, hex, in the order the packet carries them.
    public var path: [String]
    public var raw: String
    /// `advert`, `groupText`, `groupData`, `ack`, `path`, `trace`, `request`, `response`,
    /// `text`, `anonymousRequest` or `other`.
    public var kind: String
    /// The node it came from (key), when known.
    public var node: String?
    /// An advert's name.
    public var name: String?
    /// The radio's channel slot whose secret opens a group packet.
    public var channel: Int?
    public var channelHash: Int?
    /// An addressed packet's ends: the first byte of each key, hex.
    public var destination: String?
    public var source: String?
    /// An ACK's code, hex.
    public var code: String?
    public var tag: UInt32?

    public init(_ heard: HeardPacket) {
        let packet = heard.packet
        id = heard.id
        heardAt = JSONTime.iso(heard.heardAt)
        snr = heard.snr
        rssi = Int(heard.rssi)
        hash = packet.hashText
        payloadType = Self.name(of: packet.payloadType)
        route = Self.routeNames[Int(packet.route.rawValue)]
        path = packet.path.hops.map { Hex.encode($0) }
        raw = Hex.encode(heard.raw)
        node = heard.node?.hex
        switch PacketKind(heard) {
        case let .advert(key, name): (kind, node, self.name) = ("advert", key.hex, name)
        case let .groupText(channel, hash): (kind, self.channel, channelHash) = ("groupText", channel.map(Int.init), Int(hash))
        case let .groupData(channel, hash): (kind, self.channel, channelHash) = ("groupData", channel.map(Int.init), Int(hash))
        case let .ack(ack): (kind, code) = ("ack", ack.hex)
        case let .pathReturn(d, s): (kind, destination, source) = ("path", Hex.encode([d]), Hex.encode([s]))
        case let .trace(t): (kind, tag) = ("trace", t)
        case let .request(d, s): (kind, destination, source) = ("request", Hex.encode([d]), Hex.encode([s]))
        case let .response(d, s): (kind, destination, source) = ("response", Hex.encode([d]), Hex.encode([s]))
        case let .text(d, s): (kind, destination, source) = ("text", Hex.encode([d]), Hex.encode([s]))
        case let .anonymousRequest(d, sender): (kind, destination, node) = ("anonymousRequest", Hex.encode([d]), sender.hex)
        case .other: kind = "other"
        }
    }

    static let routeNames = ["transportFlood", "flood", "direct", "transportDirect"]

    /// Payload types by the names `meshport packets --type` and the API's `type` take.
    public static let typeNames: [(name: String, type: AirPacket.PayloadType)] = [
        ("request", .request), ("response", .response), ("text", .textMessage), ("ack", .ack), ("advert", .advert),
        ("grouptext", .groupText), ("groupdata", .groupData), ("anonrequest", .anonRequest), ("path", .path), ("trace", .trace),
        ("multipart", .multipart), ("control", .control), ("raw", .rawCustom),
    ]

    public static func name(of type: AirPacket.PayloadType) -> String {
        typeNames.first { $0.type == type }?.name ?? "type\(type.rawValue)"
    }

    /// The payload type a `--type` name means (case-insensitive), nil for an unknown name.
    public static func payloadType(named name: String) -> AirPacket.PayloadType? {
        typeNames.first { $0.name == name.lowercased() }?.type
    }
}
