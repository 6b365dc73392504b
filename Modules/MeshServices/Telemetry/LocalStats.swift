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
        var s = StatsSample(recordedAt: time)
        for stats in [Stats.core(core), .radio(radio), .packets(packets)] { s.add(stats) }
        return s
    }
}
