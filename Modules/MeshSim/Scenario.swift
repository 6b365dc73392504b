import MeshCodec

/// A simulated mesh as data: what `meshport sim --scenario FILE` reads (JSON, see
/// Docs/meshsim-scenarios.md) and what the built-in default mesh is made of. Every field is
/// optional; keys follow from the seed and each node's `id` unless given.
public struct Scenario: Codable, Hashable, Sendable {
    /// Start from the built-in mesh (20 nodes, chatter) and add to it.
    public var extendsDefault: Bool?
    public var seed: UInt64?
    public var radio: RadioSpec?
    public var nodes: [NodeSpec]?
    /// Many similar nodes at once (several hundred contacts, say).
    public var generate: [GenerateSpec]?
    public var events: [EventSpec]?
    /// Background channel traffic; absent: none (the default mesh has it on).
    public var chatter: ChatterSpec?
    /// The air: chance that one hop loses a packet, 0-1.
    public var lossPerHop: Double?

    /// Faults the served link injects: drops, delays, corruption, stalls (Scenario+Faults.swift).
    /// Not an `init` parameter: set it afterwards.
    public var faults: FaultSpec?
    /// Messages waiting in the offline queue at start (Scenario+Backlog.swift). Not an `init`
    /// parameter either.
    public var backlog: BacklogSpec?
    /// A busy air: packets heard per second on a channel the radio has not joined
    /// (Scenario+Overheard.swift). Not an `init` parameter.
    public var overheard: OverheardSpec?
    /// Several gateways on one air, each served as its own radio (Scenario+Gateways.swift).
    /// Not an `init` parameter.
    public var gateways: [GatewaySpec]?

    public init(extendsDefault: Bool? = nil, seed: UInt64? = nil, radio: RadioSpec? = nil, nodes: [NodeSpec]? = nil,
                generate: [GenerateSpec]? = nil, events: [EventSpec]? = nil, chatter: ChatterSpec? = nil, lossPerHop: Double? = nil) {
        self.extendsDefault = extendsDefault
        self.seed = seed
        self.radio = radio
        self.nodes = nodes
        self.generate = generate
        self.events = events
        self.chatter = chatter
        self.lossPerHop = lossPerHop
    }
}

/// The simulated radio itself.
public struct RadioSpec: Codable, Hashable, Sendable {
    public var name: String?
    /// Contact table size (`MAX_CONTACTS`), 1-1000; the default build has 100.
    public var maxContacts: Int?
    /// Offline message queue size, 1-1000 (16; firmware builds go up to 256, more is for load tests).
    public var offlineQueueSize: Int?
    /// Transmit power the board keeps at most, dBm (a higher setting is accepted and capped).
    public var txPowerCap: Int8?
    public var frequencyKHz: UInt32?
    public var bandwidthHz: UInt32?
    public var spreadingFactor: UInt8?
    public var codingRate: UInt8?
    public var txPower: Int8?
    public var latitude: Double?
    public var longitude: Double?
    /// The clock at start, epoch seconds (default: the firmware's RTC-less boot time).
    public var clock: UInt32?
    public var blePin: UInt32?
    public var batteryMillivolts: UInt16?
    /// The noise floor the radio reports in its statistics, dBm.
    public var noiseFloor: Int16?

    public init() {}
}

/// One node of the mesh.
public struct NodeSpec: Codable, Hashable, Sendable {
    /// How events and other nodes refer to it; also seeds its key.
    public var id: String
    public var name: String?
    /// chat, repeater, room or sensor.
    public var type: String?
    /// 64 hex digits; default: derived from the seed and `id`.
    public var publicKey: String?
    /// Ids of the repeaters between the radio and this node, nearest first (empty: zero-hop).
    public var via: [String]?
    public var latitude: Double?
    public var longitude: Double?
    /// In the radio's contact table at start (default true).
    public var contact: Bool?
    /// The radio already knows the direct path (default false: the first message goes flood).
    public var knownPath: Bool?
    public var favourite: Bool?
    public var adminPassword: String?
    public var guestPassword: String?
    public var allowReadOnly: Bool?
    public var ownerInfo: String?
    /// Room servers: posts it holds.
    public var posts: [PostSpec]?
    /// Chat nodes: answer telemetry requests (their owner allowed it).
    public var answersTelemetry: Bool?
    public var sensors: [SensorSpec]?
    public var batteryMillivolts: UInt16?
    /// Direct packets never reach it (a stale path): only floods get an ACK (default false).
    public var dropsDirect: Bool?
    /// Extra milliseconds its ACKs take, 0-600000 (default 0).
    public var ackDelayMs: Int?

    public init(id: String) { self.id = id }
}

public struct PostSpec: Codable, Hashable, Sendable {
    /// A node id (its key is the author).
    public var from: String
    public var text: String
    /// How long before the start it was posted.
    public var minutesAgo: Int?

    public init(from: String, text: String, minutesAgo: Int? = nil) {
        self.from = from
        self.text = text
        self.minutesAgo = minutesAgo
    }
}

/// One LPP reading: `type` is an LPP type name (temperature, humidity, barometer, gps, ...).
public struct SensorSpec: Codable, Hashable, Sendable {
    public var channel: UInt8?
    public var type: String
    public var values: [Double]

    public init(channel: UInt8? = nil, type: String, values: [Double]) {
        self.channel = channel
        self.type = type
        self.values = values
    }
}

public struct GenerateSpec: Codable, Hashable, Sendable {
    public var count: Int
    public var type: String?
    /// Name prefix; nodes are named "<prefix> <n>".
    public var namePrefix: String?
    /// Hops away, chosen per node within this range (via the default mesh's repeaters when
    /// there are any, else via unnamed ones).
    public var maxHops: Int?
    public var contact: Bool?

    public init(count: Int, type: String? = nil, namePrefix: String? = nil, maxHops: Int? = nil, contact: Bool? = nil) {
        self.count = count
        self.type = type
        self.namePrefix = namePrefix
        self.maxHops = maxHops
        self.contact = contact
    }
}

/// Something that happens at `at` seconds after start. Exactly one of the kinds is set.
public struct EventSpec: Codable, Hashable, Sendable {
    public var at: Double
    /// A DM from a node.
    public var dm: MessageSpec?
    /// A channel message.
    public var channel: MessageSpec?
    /// A node advertises (added or offered to the app by the auto-add rules).
    public var advert: String?
    /// The radio's own readings change (its battery drains, a neighbour makes noise).
    public var readings: ReadingsSpec?

    public init(at: Double, dm: MessageSpec? = nil, channel: MessageSpec? = nil, advert: String? = nil, readings: ReadingsSpec? = nil) {
        self.at = at
        self.dm = dm
        self.channel = channel
        self.advert = advert
        self.readings = readings
    }
}

/// New values of what the radio measures itself; a field left out keeps its value.
public struct ReadingsSpec: Codable, Hashable, Sendable {
    public var batteryMillivolts: UInt16?
    /// dBm.
    public var noiseFloor: Int16?

    public init(batteryMillivolts: UInt16? = nil, noiseFloor: Int16? = nil) {
        self.batteryMillivolts = batteryMillivolts
        self.noiseFloor = noiseFloor
    }
}

public struct MessageSpec: Codable, Hashable, Sendable {
    public var from: String
    public var text: String
    /// Channel slot (channel messages; default 0).
    public var index: UInt8?

    public init(from: String, text: String, index: UInt8? = nil) {
        self.from = from
        self.text = text
        self.index = index
    }
}

public struct ChatterSpec: Codable, Hashable, Sendable {
    /// Seconds after start of the first message.
    public var startAt: Double?

    public init(startAt: Double? = nil) { self.startAt = startAt }
}
