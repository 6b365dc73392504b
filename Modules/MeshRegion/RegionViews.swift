import Foundation

// What the region's read side returns (RegionHistory): plain values, one per row.

public struct RegionSummary: Sendable, Equatable {
    public var observers: Int
    public var nodes: Int
    public var packets: Int
    public var observations: Int
    public var lastHeard: Date?
}

/// A node, with the observer that hears it directly at the best SNR.
public struct RegionNode: Sendable, Equatable {
    public struct Best: Sendable, Equatable {
        public var observer: [UInt8]
        public var observerName: String?
        public var snr: Double?
        public var lastHeard: Date
    }

    public var key: [UInt8]
    public var name: String?
    public var kind: String
    public var latitude: Double?
    public var longitude: Double?
    public var firstSeen: Date
    public var lastSeen: Date
    public var best: Best?
}

/// One observer's hearing of one of a node's packets.
public struct RegionObservation: Sendable, Equatable {
    public var id: Int64
    public var observer: [UInt8]
    public var observerName: String?
    public var heardAt: Date
    public var snr: Double?
    public var rssi: Int?
    public var path: [UInt8]
    public var packetHash: String?
    public var payloadType: UInt8?
    public var direction: String
}

/// A logical packet: one MeshCore packet whatever path it took, and how often it was heard.
public struct RegionPacket: Sendable, Equatable {
    public var hash: String
    public var payloadType: UInt8
    public var firstSeen: Date
    public var lastSeen: Date
    public var observations: Int
    public var observers: Int
    /// The shortest of its raw forms, in bytes.
    public var length: Int?
}

public struct RegionChannelMessage: Sendable, Equatable {
    public var packetHash: String
    public var channel: String
    public var sender: String?
    public var text: String
    public var sentAt: Date
    public var heardAt: Date
}

public struct RegionObserver: Sendable, Equatable {
    public var key: [UInt8]
    public var region: String
    public var name: String
    public var model: String?
    public var firmware: String?
    public var online: Bool
    public var firstSeen: Date
    public var lastSeen: Date
    /// Nodes it has heard directly (zero-hop adverts).
    public var nodesHeard: Int
}

/// An observer hearing a node directly: the region map's lines.
public struct RegionLink: Sendable, Equatable {
    public var observer: [UInt8]
    public var node: [UInt8]
    public var hearings: Int
    public var bestSNR: Double?
    public var lastSNR: Double?
    public var lastHeard: Date
}

public struct RegionHour: Sendable, Equatable {
    public var hour: Date
    public var observations: Int
    public var packets: Int
}

/// One page of a list, newest first; `older` continues it.
public struct RegionPage<Item: Sendable & Equatable>: Sendable, Equatable {
    public var items: [Item]
    public var older: RegionCursor?
}
