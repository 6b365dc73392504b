/// A scenario's `overheard`: a busy air. Nodes of the mesh talk on a channel the radio has not
/// joined, so every packet reaches the radio only as the LOG_RX_DATA push the firmware makes
/// for each packet it receives (load tests of what consumes the packet log, such as a gateway).
public struct OverheardSpec: Codable, Hashable, Sendable {
    /// Packets heard per second, 1-100000 (a real radio hears a few per second; more is for load tests).
    public var perSecond: Int
    /// Seconds after the start of the first packet (default 1).
    public var startAt: Double?
    /// How many packets in all; absent: for as long as the simulation runs.
    public var count: Int?

    public init(perSecond: Int, startAt: Double? = nil, count: Int? = nil) {
        self.perSecond = perSecond
        self.startAt = startAt
        self.count = count
    }
}

extension Scenario {
    /// Schedules the first overheard packet; each schedules the next.
    func startOverheard(_ o: OverheardSpec, in s: inout SimRadioState) throws {
        let rate = try Self.check(o.perSecond, in: 1...100_000, "overheard.perSecond")
        let start = o.startAt ?? 1
        guard start >= 0, start <= 86_400 else { throw ScenarioError("overheard.startAt", "\(start) is outside 0...86400 seconds") }
        let count = try o.count.map { try Self.check($0, in: 1...100_000_000, "overheard.count") }
        let run = OverheardRun(start: .milliseconds(Int64(start * 1000)), every: .seconds(1) / rate, count: count)
        SimHandler.scheduleOverheard(&s, run, number: 0)
    }
}
