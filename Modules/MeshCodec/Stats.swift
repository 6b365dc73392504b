/// STATS sub-frame types (CMD_GET_STATS [1]).
public enum StatsType: UInt8, Sendable, CaseIterable {
    case core = 0, radio = 1, packets = 2
}

/// STATS (24) sub-frames (Docs/protocol.md §4.6).
public enum Stats: Hashable, Sendable {
    case core(CoreStats)
    case radio(RadioStats)
    case packets(PacketStats)

    public var type: StatsType {
        switch self {
        case .core: .core
        case .radio: .radio
        case .packets: .packets
        }
    }
}

public struct CoreStats: Hashable, Sendable {
    public var batteryMillivolts: UInt16
    public var uptimeSeconds: UInt32
    public var errorFlags: UInt16
    public var queueLength: UInt8

    public init(batteryMillivolts: UInt16, uptimeSeconds: UInt32, errorFlags: UInt16, queueLength: UInt8) {
        self.batteryMillivolts = batteryMillivolts
        self.uptimeSeconds = uptimeSeconds
        self.errorFlags = errorFlags
        self.queueLength = queueLength
    }
}

public struct RadioStats: Hashable, Sendable {
    public var noiseFloor: Int16
    public var lastRSSI: Int8
    /// SNR × 4 as sent.
    public var lastSNRx4: Int8
    public var txAirtimeSeconds: UInt32
    public var rxAirtimeSeconds: UInt32

    public init(noiseFloor: Int16, lastRSSI: Int8, lastSNRx4: Int8, txAirtimeSeconds: UInt32, rxAirtimeSeconds: UInt32) {
        self.noiseFloor = noiseFloor
        self.lastRSSI = lastRSSI
        self.lastSNRx4 = lastSNRx4
        self.txAirtimeSeconds = txAirtimeSeconds
        self.rxAirtimeSeconds = rxAirtimeSeconds
    }

    public var lastSNR: Double { Double(lastSNRx4) / 4 }
}

public struct PacketStats: Hashable, Sendable {
    public var received: UInt32
    public var sent: UInt32
    public var sentFlood: UInt32
    public var sentDirect: UInt32
    public var receivedFlood: UInt32
    public var receivedDirect: UInt32
    /// Added in v1.13.0; nil in the 26-byte legacy frame.
    public var receiveErrors: UInt32?

    public init(received: UInt32, sent: UInt32, sentFlood: UInt32, sentDirect: UInt32, receivedFlood: UInt32,
                receivedDirect: UInt32, receiveErrors: UInt32?) {
        self.received = received
        self.sent = sent
        self.sentFlood = sentFlood
        self.sentDirect = sentDirect
        self.receivedFlood = receivedFlood
        self.receivedDirect = receivedDirect
        self.receiveErrors = receiveErrors
    }
}

extension Stats {
    static func read(_ r: inout ByteReader) throws -> Stats {
        let at = r.offset
        let raw = try r.u8("stats type")
        switch StatsType(rawValue: raw) {
        case .core:
            return .core(CoreStats(batteryMillivolts: try r.u16("battery"), uptimeSeconds: try r.u32("uptime"),
                                   errorFlags: try r.u16("error flags"), queueLength: try r.u8("queue length")))
        case .radio:
            return .radio(RadioStats(noiseFloor: try r.i16("noise floor"), lastRSSI: try r.i8("last RSSI"), lastSNRx4: try r.i8("last SNR"),
                                     txAirtimeSeconds: try r.u32("TX airtime"), rxAirtimeSeconds: try r.u32("RX airtime")))
        case .packets:
            let p = PacketStats(received: try r.u32("received"), sent: try r.u32("sent"), sentFlood: try r.u32("sent flood"),
                                sentDirect: try r.u32("sent direct"), receivedFlood: try r.u32("received flood"),
                                receivedDirect: try r.u32("received direct"),
                                receiveErrors: r.isAtEnd ? nil : try r.u32("receive errors"))
            return .packets(p)
        case nil:
            throw r.invalid("stats type", at: at, "unknown type \(raw)")
        }
    }

    func write(_ w: inout ByteWriter) {
        w.u8(type.rawValue)
        switch self {
        case let .core(c):
            w.u16(c.batteryMillivolts); w.u32(c.uptimeSeconds); w.u16(c.errorFlags); w.u8(c.queueLength)
        case let .radio(s):
            w.i16(s.noiseFloor); w.i8(s.lastRSSI); w.i8(s.lastSNRx4); w.u32(s.txAirtimeSeconds); w.u32(s.rxAirtimeSeconds)
        case let .packets(p):
            for v in [p.received, p.sent, p.sentFlood, p.sentDirect, p.receivedFlood, p.receivedDirect] { w.u32(v) }
            if let e = p.receiveErrors { w.u32(e) }
        }
    }
}
