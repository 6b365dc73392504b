import Foundation
import MeshCodec
import MeshStore

/// The radio's own statistics at one moment: STATS core, radio and packets, battery and storage.
public struct LocalStats: Hashable, Sendable {
    public var core: CoreStats
    public var radio: RadioStats
    public var packets: PacketStats
    public var battery: BatteryAndStorage

    public init(core: CoreStats, radio: RadioStats, packets: PacketStats, battery: BatteryAndStorage) {
        self.core = core
        self.radio = radio
        self.packets = packets
        self.battery = battery
    }

    /// One stats row for the radio itself (no node).
    public func sample(at time: Date) -> StatsSample {
        var s = StatsSample(stats: .core(core), recordedAt: time)
        let r = StatsSample(stats: .radio(radio), recordedAt: time)
        let p = StatsSample(stats: .packets(packets), recordedAt: time)
        s.noiseFloor = r.noiseFloor
        s.lastRSSI = r.lastRSSI
        s.lastSNRx4 = r.lastSNRx4
        s.txAirtimeSeconds = r.txAirtimeSeconds
        s.rxAirtimeSeconds = r.rxAirtimeSeconds
        s.packetsReceived = p.packetsReceived
        s.packetsSent = p.packetsSent
        s.sentFlood = p.sentFlood
        s.sentDirect = p.sentDirect
        s.receivedFlood = p.receivedFlood
        s.receivedDirect = p.receivedDirect
        s.receiveErrors = p.receiveErrors
        return s
    }
}
