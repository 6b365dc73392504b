import Foundation
import MeshCodec

/// A repeater's or room server's status answer.
public struct RepeaterStatusJSON: Codable, Hashable, Sendable {
    public var batteryMillivolts: Int
    public var uptimeSeconds: Int
    public var queueLength: Int
    public var noiseFloor: Int
    public var lastRSSI: Int
    public var lastSNR: Double
    public var packetsReceived: Int
    public var packetsSent: Int
    public var airtimeSeconds: Int
    public var rxAirtimeSeconds: Int
    public var sentFlood: Int
    public var sentDirect: Int
    public var receivedFlood: Int
    public var receivedDirect: Int
    public var receiveErrors: Int?

    public init(_ s: RepeaterStatus) {
        batteryMillivolts = Int(s.batteryMillivolts)
        uptimeSeconds = Int(s.uptimeSeconds)
        queueLength = Int(s.txQueueLength)
        noiseFloor = Int(s.noiseFloor)
        lastRSSI = Int(s.lastRSSI)
        lastSNR = Double(s.lastSNRx4) / 4
        packetsReceived = Int(s.packetsReceived)
        packetsSent = Int(s.packetsSent)
        airtimeSeconds = Int(s.airtimeSeconds)
        rxAirtimeSeconds = Int(s.rxAirtimeSeconds)
        sentFlood = Int(s.sentFlood)
        sentDirect = Int(s.sentDirect)
        receivedFlood = Int(s.receivedFlood)
        receivedDirect = Int(s.receivedDirect)
        receiveErrors = s.receiveErrors.map(Int.init)
    }
}

/// One telemetry reading (Cayenne LPP): its channel, kind and values.
public struct ReadingJSON: Codable, Hashable, Sendable {
    public var channel: Int
    public var type: String
    public var values: [Double]
    public var recordedAt: String?

    public init(_ r: LPPRecord, at: Date? = nil) {
        channel = Int(r.channel)
        type = r.type.name
        values = r.values
        recordedAt = at.map(JSONTime.iso)
    }
}
