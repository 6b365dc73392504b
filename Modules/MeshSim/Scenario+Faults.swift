/// A scenario's `faults` section: link faults for `meshport sim` (see SimFaults and
/// Docs/meshsim-scenarios.md, "Faults"). Every field is optional.
public struct FaultSpec: Codable, Hashable, Sendable {
    public var dropLinkAtFrame: Int?
    public var dropChance: Double?
    public var delayMs: Int?
    public var corruptChance: Double?
    public var stallAtFrame: Int?
    /// Default 5 s; needs `stallAtFrame`.
    public var stallSeconds: Double?
    /// Default: the scenario's seed (the command line's when given).
    public var seed: UInt64?

    public init(dropLinkAtFrame: Int? = nil, dropChance: Double? = nil, delayMs: Int? = nil, corruptChance: Double? = nil,
                stallAtFrame: Int? = nil, stallSeconds: Double? = nil, seed: UInt64? = nil) {
        self.dropLinkAtFrame = dropLinkAtFrame
        self.dropChance = dropChance
        self.delayMs = delayMs
        self.corruptChance = corruptChance
        self.stallAtFrame = stallAtFrame
        self.stallSeconds = stallSeconds
        self.seed = seed
    }

    /// These fields, with those `other` sets taken from `other` (command-line overrides).
    public func merging(_ other: FaultSpec) -> FaultSpec {
        FaultSpec(dropLinkAtFrame: other.dropLinkAtFrame ?? dropLinkAtFrame, dropChance: other.dropChance ?? dropChance,
                  delayMs: other.delayMs ?? delayMs, corruptChance: other.corruptChance ?? corruptChance,
                  stallAtFrame: other.stallAtFrame ?? stallAtFrame, stallSeconds: other.stallSeconds ?? stallSeconds,
                  seed: other.seed ?? seed)
    }

    /// Checks each field on its own; errors are located at `location.field` (just `field`
    /// when `location` is empty, for callers that name fields their own way).
    public func checkRanges(at location: String = "faults") throws {
        func at(_ field: String) -> String { location.isEmpty ? field : "\(location).\(field)" }
        if let n = dropLinkAtFrame, n < 1 { throw ScenarioError(at("dropLinkAtFrame"), "\(n) is not a frame number (frames count from 1)") }
        if let n = stallAtFrame, n < 1 { throw ScenarioError(at("stallAtFrame"), "\(n) is not a frame number (frames count from 1)") }
        if let p = dropChance, !(0...1).contains(p) { throw ScenarioError(at("dropChance"), "\(p) is not between 0 and 1") }
        if let p = corruptChance, !(0...1).contains(p) { throw ScenarioError(at("corruptChance"), "\(p) is not between 0 and 1") }
        if let ms = delayMs, !(0...60_000).contains(ms) { throw ScenarioError(at("delayMs"), "\(ms) ms is outside 0...60000") }
        if let s = stallSeconds, !(0...3600).contains(s) { throw ScenarioError(at("stallSeconds"), "\(s) s is outside 0...3600") }
    }
}

extension Scenario {
    /// The link faults this scenario asks for, checked; nil without a `faults` section. The
    /// seed is `faults.seed`, else `seed` (the command line's), else the scenario's.
    public func faults(seed override: UInt64? = nil) throws -> SimFaults? {
        guard let spec = faults else { return nil }
        try spec.checkRanges()
        if spec.stallSeconds != nil, spec.stallAtFrame == nil { throw ScenarioError("faults.stallSeconds", "needs stallAtFrame") }
        return SimFaults(dropLinkAtFrame: spec.dropLinkAtFrame, dropChance: spec.dropChance ?? 0, delayMs: spec.delayMs ?? 0,
                         corruptChance: spec.corruptChance ?? 0, stallAtFrame: spec.stallAtFrame,
                         stallSeconds: spec.stallSeconds ?? SimFaults.defaultStallSeconds, seed: spec.seed ?? override ?? seed ?? 1)
    }
}
