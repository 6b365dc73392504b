import Foundation
import MeshCodec
import MeshRegion
import MeshServices

// The region routes' JSON (Docs/openapi.json): keys in lower-case hex, times ISO 8601, payload
// types by the names the packet log uses.

private func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

private func typeName(_ raw: UInt8?) -> String? {
    raw.map { PacketJSON.name(of: AirPacket.PayloadType(rawValue: $0)) }
}

struct RegionSummaryJSON: Encodable, Sendable {
    var observers, nodes, packets, observations: Int
    var lastHeard: String?

    init(_ s: RegionSummary) {
        (observers, nodes, packets, observations) = (s.observers, s.nodes, s.packets, s.observations)
        lastHeard = s.lastHeard.map(JSONTime.iso)
    }
}

struct RegionNodeJSON: Encodable, Sendable {
    struct Best: Encodable, Sendable {
        var observer: String
        var observerName: String?
        var snr: Double?
        var lastHeard: String
    }

    var key: String
    var name: String?
    var kind: String
    var latitude: Double?
    var longitude: Double?
    var firstSeen: String
    var lastSeen: String
    var best: Best?

    init(_ n: RegionNode) {
        key = hex(n.key)
        name = n.name
        kind = n.kind
        latitude = n.latitude
        longitude = n.longitude
        firstSeen = JSONTime.iso(n.firstSeen)
        lastSeen = JSONTime.iso(n.lastSeen)
        best = n.best.map { Best(observer: hex($0.observer), observerName: $0.observerName, snr: $0.snr, lastHeard: JSONTime.iso($0.lastHeard)) }
    }
}

struct RegionObservationJSON: Encodable, Sendable {
    var id: Int64
    var observer: String
    var observerName: String?
    var heardAt: String
    var snr: Double?
    var rssi: Int?
    var path: String
    var packetHash: String?
    var payloadType: String?
    var direction: String

    init(_ o: RegionObservation) {
        id = o.id
        observer = hex(o.observer)
        observerName = o.observerName
        heardAt = JSONTime.iso(o.heardAt)
        snr = o.snr
        rssi = o.rssi
        path = hex(o.path)
        packetHash = o.packetHash
        payloadType = typeName(o.payloadType)
        direction = o.direction
    }
}

struct RegionPacketJSON: Encodable, Sendable {
    var hash: String
    var payloadType: String
    var firstSeen: String
    var lastSeen: String
    var observations: Int
    var observers: Int
    var length: Int?

    init(_ p: RegionPacket) {
        hash = p.hash
        payloadType = PacketJSON.name(of: AirPacket.PayloadType(rawValue: p.payloadType))
        firstSeen = JSONTime.iso(p.firstSeen)
        lastSeen = JSONTime.iso(p.lastSeen)
        observations = p.observations
        observers = p.observers
        length = p.length
    }
}

struct RegionChannelMessageJSON: Encodable, Sendable {
    var packetHash: String
    var channel: String
    var sender: String?
    var text: String
    var sentAt: String
    var heardAt: String

    init(_ m: RegionChannelMessage) {
        packetHash = m.packetHash
        channel = m.channel
        sender = m.sender
        text = m.text
        sentAt = JSONTime.iso(m.sentAt)
        heardAt = JSONTime.iso(m.heardAt)
    }
}

struct RegionObserverJSON: Encodable, Sendable {
    var key: String
    var region: String
    var name: String
    var model: String?
    var firmware: String?
    var online: Bool
    var firstSeen: String
    var lastSeen: String
    var nodesHeard: Int

    init(_ o: RegionObserver) {
        key = hex(o.key)
        region = o.region
        name = o.name
        model = o.model
        firmware = o.firmware
        online = o.online
        firstSeen = JSONTime.iso(o.firstSeen)
        lastSeen = JSONTime.iso(o.lastSeen)
        nodesHeard = o.nodesHeard
    }
}

struct RegionLinkJSON: Encodable, Sendable {
    var observer: String
    var node: String
    var hearings: Int
    var bestSNR: Double?
    var lastSNR: Double?
    var lastHeard: String

    init(_ l: RegionLink) {
        observer = hex(l.observer)
        node = hex(l.node)
        hearings = l.hearings
        bestSNR = l.bestSNR
        lastSNR = l.lastSNR
        lastHeard = JSONTime.iso(l.lastHeard)
    }
}

struct RegionHourJSON: Encodable, Sendable {
    var hour: String
    var observations: Int
    var packets: Int

    init(_ h: RegionHour) {
        hour = JSONTime.iso(h.hour)
        observations = h.observations
        packets = h.packets
    }
}

struct ServerJSON: Encodable, Sendable {
    var version: String
    /// `serve --history`: the /api/region routes answer.
    var regionHistory: Bool
}
