import Foundation
import MeshCodec

/// A packet the radio heard on air (a LOG_RX_DATA push), as the packet log keeps it: the
/// bytes, how well they arrived, and what Meshport could tell about them when they came.
public struct HeardPacket: Hashable, Sendable {
    /// Set once stored.
    public var id: Int64?
    public var heardAt: Date
    /// SNR in quarter dB, as the radio reports it.
    public var snrX4: Int8
    public var rssi: Int8
    /// The packet as heard: header, transport codes, path, payload.
    public let raw: [UInt8]
    /// `raw`, decoded.
    public let packet: AirPacket
    /// `packet.hash()`, made once: the store and the uplink both need it for every packet.
    public let hash: [UInt8]
    /// The radio's channel slot whose secret opens it (group text and data).
    public var channel: UInt8?
    /// The node it came from, when Meshport can tell: an advert's or anonymous request's key,
    /// or the one contact whose key starts with the sender's hash.
    public var node: PublicKey?

    /// Decodes `raw`; throws the codec's error naming what is wrong and where.
    public init(id: Int64? = nil, heardAt: Date, snrX4: Int8, rssi: Int8, raw: [UInt8], channel: UInt8? = nil, node: PublicKey? = nil) throws {
        self.id = id
        self.heardAt = heardAt
        self.snrX4 = snrX4
        self.rssi = rssi
        self.raw = raw
        packet = try AirPacket(decoding: raw)
        hash = packet.hash()
        self.channel = channel
        self.node = node
    }

    public var snr: Double { Double(snrX4) / 4 }

    /// Where the page after one ending with this packet starts.
    public var cursor: TimelineCursor? { id.map { TimelineCursor(timestamp: heardAt.storeMillis, id: $0) } }
}

/// Which heard packets a read returns.
public struct PacketFilter: Hashable, Sendable {
    public var payloadType: AirPacket.PayloadType?
    /// Packets from this node (`HeardPacket.node`).
    public var node: PublicKey?

    public init(payloadType: AirPacket.PayloadType? = nil, node: PublicKey? = nil) {
        self.payloadType = payloadType
        self.node = node
    }
}

/// One page of the packet log, newest first, and the cursor for the next (older) page.
public struct PacketPage: Hashable, Sendable {
    public var packets: [HeardPacket]
    public var older: TimelineCursor?

    public init(packets: [HeardPacket], older: TimelineCursor?) {
        self.packets = packets
        self.older = older
    }
}
