import Synchronization

/// What an uplink has done since it started, for /metrics and the log.
public struct UplinkCounters: Sendable, Equatable {
    /// Packet messages handed to the MQTT client (it counts what the broker took).
    public var packetsQueued = 0
    /// Heard packets that are not valid air packets: logged, not sent.
    public var packetsUndecodable = 0
    /// Messages the MQTT client refused to queue.
    public var publishFailures = 0
    public var statusQueued = 0
    /// Status refreshes made without the radio's stats (it did not answer GET_STATS).
    public var statsFailures = 0
    /// Tokens made again after the first.
    public var tokensMade = 0
}

/// An uplink's counters, shared by its actor and its packet forwarder (PacketForwarder.swift).
final class UplinkTally: Sendable {
    private let counters = Mutex(UplinkCounters())

    var current: UplinkCounters { counters.withLock { $0 } }

    func count(_ change: (inout UplinkCounters) -> Void) { counters.withLock { change(&$0) } }
}
