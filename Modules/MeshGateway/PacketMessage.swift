import Foundation
import MeshCodec

/// One heard packet as the community tools publish it on `.../packets` (Docs/gateway.md,
/// "Packet message"). Numbers are strings, as the tools send them; `raw` is the whole air
/// packet of the LOG_RX_DATA push and settles anything the other fields leave open.
public struct PacketMessage: Codable, Hashable, Sendable {
    public var origin: String
    public var originID: String
    public var timestamp: String
    public var type: String
    public var direction: String
    public var time: String
    public var date: String
    public var length: String
    public var packetType: String
    public var route: String
    public var payloadLength: String
    public var raw: String
    public var snr: String
    public var rssi: String
    public var hash: String
    /// Direct routes only: the hops still to go, each hop's hash in hex, comma-separated.
    public var path: String?

    enum CodingKeys: String, CodingKey {
        case origin, timestamp, type, direction, time, date, route, raw, hash, path
        case originID = "origin_id"
        case length = "len"
        case packetType = "packet_type"
        case payloadLength = "payload_len"
        case snr = "SNR"
        case rssi = "RSSI"
    }

    /// The message for one LOG_RX_DATA push heard at `instant`.
    public init(heard: ReceivedPacket, origin: GatewayOrigin, at instant: Date) throws(GatewayError) {
        let packet: AirPacket
        do {
            packet = try AirPacket(decoding: heard.payload)
        } catch {
            throw .undecodablePacket(raw: UpperHex.encode(heard.payload), reason: "\(error)")
        }
        self.init(packet: packet, raw: heard.payload, snrX4: heard.snrX4, rssi: heard.rssi, origin: origin, at: instant)
    }

    /// The message for a packet already decoded from `raw` (the packet log's `HeardPacket`);
    /// `hash`: the packet's hash when already made (`AirPacket.hash()`).
    public init(packet: AirPacket, raw: [UInt8], snrX4: Int8, rssi: Int8, origin: GatewayOrigin, at instant: Date, hash: [UInt8]? = nil) {
        let when = CommunityTime(instant)
        self.origin = origin.name
        originID = origin.id
        timestamp = when.timestamp
        type = "PACKET"
        direction = "rx"
        time = when.time
        date = when.date
        length = String(raw.count)
        packetType = String(packet.payloadType.rawValue)
        route = Self.routeLetter(packet.route)
        payloadLength = String(packet.payload.count)
        self.raw = UpperHex.encode(raw)
        snr = String(Double(snrX4) / 4)
        self.rssi = String(rssi)
        self.hash = UpperHex.encode(hash ?? packet.hash())
        path = packet.route == .direct ? Self.hops(packet.path) : nil
    }

    /// The JSON text, keys in sorted order as GatewayJSON writes every message.
    var json: [UInt8] {
        var writer = JSONObjectWriter(capacity: 400 + raw.utf8.count + origin.utf8.count)
        writer.field("RSSI", rssi)
        writer.field("SNR", snr)
        writer.field("date", date)
        writer.field("direction", direction)
        writer.field("hash", hash)
        writer.field("len", length)
        writer.field("origin", origin)
        writer.field("origin_id", originID)
        writer.field("packet_type", packetType)
        if let path { writer.field("path", path) }
        writer.field("payload_len", payloadLength)
        writer.field("raw", raw)
        writer.field("route", route)
        writer.field("time", time)
        writer.field("timestamp", timestamp)
        writer.field("type", type)
        return writer.finish()
    }

    /// The tools' letters: F for both flood routes, D for direct, T for transport-direct.
    static func routeLetter(_ route: AirPacket.Route) -> String {
        switch route {
        case .flood, .transportFlood: "F"
        case .direct: "D"
        case .transportDirect: "T"
        }
    }

    static func hops(_ path: Path) -> String {
        path.hops.map { Hex.encode($0) }.joined(separator: ",")
    }
}
