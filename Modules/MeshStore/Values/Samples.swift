import Foundation
import MeshCodec

/// Where a position came from.
public enum PositionSource: Int, Hashable, Sendable {
    case advert = 0
    case telemetry = 1
}

/// A node's position at a time (coalesced writes).
public struct PositionSample: Hashable, Sendable {
    public var node: PublicKey
    public var coordinates: Coordinates
    public var altitude: Double?
    public var source: PositionSource
    public var recordedAt: Date

    public init(node: PublicKey, coordinates: Coordinates, altitude: Double? = nil, source: PositionSource = .advert, recordedAt: Date) {
        self.node = node
        self.coordinates = coordinates
        self.altitude = altitude
        self.source = source
        self.recordedAt = recordedAt
    }
}

/// One LPP record a node reported (coalesced writes). Records with up to three components
/// (accelerometer, GPS) keep all of them.
public struct TelemetrySample: Hashable, Sendable {
    public var node: PublicKey
    public var record: LPPRecord
    public var recordedAt: Date

    public init(node: PublicKey, record: LPPRecord, recordedAt: Date) {
        self.node = node
        self.record = record
        self.recordedAt = recordedAt
    }
}

/// Radio statistics at a time: the local radio's STATS frames (`node` nil) or a remote
/// node's status reply. Fields a source does not carry stay nil.
public struct StatsSample: Hashable, Sendable {
    public var node: PublicKey?
    public var recordedAt: Date
    public var batteryMillivolts: Int?
    public var uptimeSeconds: Int?
    public var errorFlags: Int?
    public var queueLength: Int?
    public var noiseFloor: Int?
    public var lastRSSI: Int?
    public var lastSNRx4: Int?
    public var txAirtimeSeconds: Int?
    public var rxAirtimeSeconds: Int?
    public var packetsReceived: Int?
    public var packetsSent: Int?
    public var sentFlood: Int?
    public var sentDirect: Int?
    public var receivedFlood: Int?
    public var receivedDirect: Int?
    public var receiveErrors: Int?

    public init(node: PublicKey? = nil, recordedAt: Date) {
        self.node = node
        self.recordedAt = recordedAt
    }

    public init(node: PublicKey? = nil, stats: Stats, recordedAt: Date) {
        self.init(node: node, recordedAt: recordedAt)
        add(stats)
    }

    /// Fills in the fields one STATS frame carries (core, radio or packets), so one sample
    /// can hold all three taken together.
    public mutating func add(_ stats: Stats) {
        switch stats {
        case let .core(c):
            batteryMillivolts = Int(c.batteryMillivolts)
            uptimeSeconds = Int(c.uptimeSeconds)
            errorFlags = Int(c.errorFlags)
            queueLength = Int(c.queueLength)
        case let .radio(r):
            noiseFloor = Int(r.noiseFloor)
            lastRSSI = Int(r.lastRSSI)
            lastSNRx4 = Int(r.lastSNRx4)
            txAirtimeSeconds = Int(r.txAirtimeSeconds)
            rxAirtimeSeconds = Int(r.rxAirtimeSeconds)
        case let .packets(p):
            packetsReceived = Int(p.received)
            packetsSent = Int(p.sent)
            sentFlood = Int(p.sentFlood)
            sentDirect = Int(p.sentDirect)
            receivedFlood = Int(p.receivedFlood)
            receivedDirect = Int(p.receivedDirect)
            receiveErrors = p.receiveErrors.map(Int.init)
        }
    }

    public init(node: PublicKey, status s: RepeaterStatus, recordedAt: Date) {
        self.init(node: node, recordedAt: recordedAt)
        batteryMillivolts = Int(s.batteryMillivolts)
        uptimeSeconds = Int(s.uptimeSeconds)
        queueLength = Int(s.txQueueLength)
        noiseFloor = Int(s.noiseFloor)
        lastRSSI = Int(s.lastRSSI)
        lastSNRx4 = Int(s.lastSNRx4)
        txAirtimeSeconds = Int(s.airtimeSeconds)
        rxAirtimeSeconds = Int(s.rxAirtimeSeconds)
        packetsReceived = Int(s.packetsReceived)
        packetsSent = Int(s.packetsSent)
        sentFlood = Int(s.sentFlood)
        sentDirect = Int(s.sentDirect)
        receivedFlood = Int(s.receivedFlood)
        receivedDirect = Int(s.receivedDirect)
        receiveErrors = s.receiveErrors.map(Int.init)
    }
}

/// The high-rate data the coalescer holds until a flush: one transaction writes it all.
public struct SampleBatch: Hashable, Sendable {
    public var positions: [PositionSample]
    public var telemetry: [TelemetrySample]
    public var stats: [StatsSample]
    /// The packet log's new rows, in the order heard.
    public var packets: [HeardPacket]

    public init(positions: [PositionSample] = [], telemetry: [TelemetrySample] = [], stats: [StatsSample] = [], packets: [HeardPacket] = []) {
        self.positions = positions
        self.telemetry = telemetry
        self.stats = stats
        self.packets = packets
    }

    public var count: Int { positions.count + telemetry.count + stats.count + packets.count }
    public var isEmpty: Bool { count == 0 }

    mutating func append(_ other: SampleBatch) {
        positions += other.positions
        telemetry += other.telemetry
        stats += other.stats
        packets += other.packets
    }
}

/// What writing a sample batch did.
public struct SampleWriteReport: Hashable, Sendable {
    public var inserted = 0
    /// Samples of nodes that are not contacts of the radio (they have no row to belong to).
    public var skippedUnknownNodes = 0
    /// Old rows removed to keep the caps.
    public var trimmed = 0

    public init() {}

    mutating func add(_ other: SampleWriteReport) {
        inserted += other.inserted
        skippedUnknownNodes += other.skippedUnknownNodes
        trimmed += other.trimmed
    }
}
