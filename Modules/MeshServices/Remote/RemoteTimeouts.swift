/// How long a remote request waits for its reply (Docs/protocol.md §7.5, §7.8).
public struct RemoteTimeouts: Hashable, Sendable {
    /// The fixed part: the node's own processing and the first link.
    public var base: Duration
    /// Added per hop of the route (each repeater forwards out and back).
    public var perHop: Duration
    /// Hops assumed when the request went flood (no known path): a small town mesh reaches
    /// most nodes within 3 repeaters.
    public var floodHops: Int
    /// Multiplier on the radio's suggested timeout from SENT; the larger limit wins (0 ignores it).
    public var suggestionFactor: Double

    public init(base: Duration = .seconds(5), perHop: Duration = .seconds(10), floodHops: Int = 3, suggestionFactor: Double = 1) {
        self.base = base
        self.perHop = perHop
        self.floodHops = floodHops
        self.suggestionFactor = suggestionFactor
    }

    public static let standard = RemoteTimeouts()

    /// 5 s + 10 s per hop, or the radio's suggestion if that is longer.
    public func limit(flood: Bool, hops: Int, suggestedMs: UInt32) -> Duration {
        let ours = base + perHop * (flood ? floodHops : hops)
        let suggested = Duration.milliseconds(Int64((Double(suggestedMs) * suggestionFactor).rounded()))
        return max(ours, suggested)
    }
}
