import Foundation

// The values an ingest worker hands to the region store: one community MQTT message becomes one
// `ObserverReport` (a `status` message) or one `Hearing` (a `packets` message).

/// A gateway (observer) as its retained `status` message describes it.
public struct ObserverReport: Sendable, Equatable {
    /// The gateway radio's public key (`origin_id`, 32 bytes).
    public var key: [UInt8]
    /// The region code from the topic (`meshcore/{IATA}/...`).
    public var region: String
    /// The radio's name (`origin`).
    public var name: String
    /// `status` was "online"; false for the last will's "offline".
    public var online: Bool
    public var reportedAt: Date
    public var model: String?
    public var firmware: String?
    public var clientVersion: String?
    /// The radio settings text as published (`radio`).
    public var radio: String?
    /// The `stats` object as received, kept as JSON text.
    public var statsJSON: String?

    public init(key: [UInt8], region: String, name: String, online: Bool, reportedAt: Date, model: String? = nil,
                firmware: String? = nil, clientVersion: String? = nil, radio: String? = nil, statsJSON: String? = nil) {
        self.key = key
        self.region = region
        self.name = name
        self.online = online
        self.reportedAt = reportedAt
        self.model = model
        self.firmware = firmware
        self.clientVersion = clientVersion
        self.radio = radio
        self.statsJSON = statsJSON
    }
}

/// One observer hearing (or sending) one air packet: one community `packets` message.
public struct Hearing: Sendable, Equatable {
    public enum Direction: String, Sendable, Equatable {
        case rx, tx
    }

    public var observerKey: [UInt8]
    public var region: String
    /// The message's `timestamp`: when the observer heard the packet.
    public var heardAt: Date
    public var direction: Direction
    /// The whole air packet (`raw`), authoritative over every other field of the message.
    public var raw: [UInt8]
    public var snr: Double?
    public var rssi: Int?
    /// What MeshCodec could read from `raw`; nil when it does not decode (the raw bytes are still kept).
    public var decoded: DecodedPacket?

    public init(observerKey: [UInt8], region: String, heardAt: Date, direction: Direction, raw: [UInt8],
                snr: Double? = nil, rssi: Int? = nil, decoded: DecodedPacket? = nil) {
        self.observerKey = observerKey
        self.region = region
        self.heardAt = heardAt
        self.direction = direction
        self.raw = raw
        self.snr = snr
        self.rssi = rssi
        self.decoded = decoded
    }
}

/// The header facts of a decoded air packet and what its payload says when it can be read.
public struct DecodedPacket: Sendable, Equatable {
    /// The MeshCore packet hash (16 upper-case hex characters, `AirPacket.hashText`): one logical packet,
    /// whatever path it took.
    public var packetHash: String
    public var payloadType: UInt8
    public var routeType: UInt8
    public var payloadVersion: UInt8
    /// The path as received: one hash byte per hop.
    public var path: [UInt8]
    public var facts: [PacketFact]

    public init(packetHash: String, payloadType: UInt8, routeType: UInt8, payloadVersion: UInt8, path: [UInt8],
                facts: [PacketFact] = []) {
        self.packetHash = packetHash
        self.payloadType = payloadType
        self.routeType = routeType
        self.payloadVersion = payloadVersion
        self.path = path
        self.facts = facts
    }
}

/// What a packet's payload says, when the region can read it.
public enum PacketFact: Sendable, Equatable {
    case advert(NodeAdvert)
    case channelText(ChannelText)
    case trace(TraceReport)
}

/// A node's signed advert: who it is and, when it says, where.
public struct NodeAdvert: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case chat, repeater, room, sensor, unknown
    }

    public var key: [UInt8]
    public var name: String?
    public var kind: Kind
    public var latitude: Double?
    public var longitude: Double?
    /// The advert's own timestamp (the node's clock).
    public var advertisedAt: Date

    public init(key: [UInt8], name: String?, kind: Kind, latitude: Double?, longitude: Double?, advertisedAt: Date) {
        self.key = key
        self.name = name
        self.kind = kind
        self.latitude = latitude
        self.longitude = longitude
        self.advertisedAt = advertisedAt
    }
}

/// A group text decrypted with a channel secret the worker knows (Public and `#hashtag` channels by default).
public struct ChannelText: Sendable, Equatable {
    public var channelName: String
    public var channelHash: UInt8
    /// The sender's name as the text carries it ("name: text"), when it does.
    public var sender: String?
    public var text: String
    /// The sender's timestamp inside the encrypted payload.
    public var sentAt: Date

    public init(channelName: String, channelHash: UInt8, sender: String?, text: String, sentAt: Date) {
        self.channelName = channelName
        self.channelHash = channelHash
        self.sender = sender
        self.text = text
        self.sentAt = sentAt
    }
}

/// A trace packet: its tag and the SNR each hop measured so far.
public struct TraceReport: Sendable, Equatable {
    public var tag: UInt32
    public var hops: [UInt8]
    public var hopSNRs: [Double]

    public init(tag: UInt32, hops: [UInt8], hopSNRs: [Double]) {
        self.tag = tag
        self.hops = hops
        self.hopSNRs = hopSNRs
    }
}

/// A message on the community topics that could not become a report or a hearing, kept with its reason.
public struct RejectedMessage: Sendable, Equatable {
    public var topic: String
    /// A sentence for people: what was wrong and where ("field `raw` is not hex").
    public var reason: String
    public var payload: [UInt8]
    public var receivedAt: Date

    public init(topic: String, reason: String, payload: [UInt8], receivedAt: Date) {
        self.topic = topic
        self.reason = reason
        self.payload = payload
        self.receivedAt = receivedAt
    }
}

/// What one ingest batch writes in one transaction. Writing the same batch twice changes nothing.
public struct RegionBatch: Sendable, Equatable {
    public var observers: [ObserverReport]
    public var hearings: [Hearing]
    public var rejected: [RejectedMessage]

    public init(observers: [ObserverReport] = [], hearings: [Hearing] = [], rejected: [RejectedMessage] = []) {
        self.observers = observers
        self.hearings = hearings
        self.rejected = rejected
    }

    public var isEmpty: Bool { observers.isEmpty && hearings.isEmpty && rejected.isEmpty }
    public var count: Int { observers.count + hearings.count + rejected.count }
}

/// Where ingest writes: the PostgreSQL region store, or a test's own sink.
public protocol RegionSink: Sendable {
    /// Writes the batch in one transaction, idempotently; throws when nothing of it was written.
    func write(_ batch: RegionBatch) async throws
}
