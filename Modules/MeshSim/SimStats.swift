/// Counters behind GET_STATS (Docs/protocol.md §4.6).
public struct SimStats: Hashable, Sendable {
    public var received: UInt32 = 0
    public var sent: UInt32 = 0
    public var sentFlood: UInt32 = 0
    public var sentDirect: UInt32 = 0
    public var receivedFlood: UInt32 = 0
    public var receivedDirect: UInt32 = 0
    public var receiveErrors: UInt32 = 0
    /// Milliseconds, summed per packet; reported in whole seconds.
    public var txAirtimeMs: Double = 0
    public var rxAirtimeMs: Double = 0
    public var lastRSSI: Int8 = 0
    public var lastSNRx4: Int8 = 0

    public init() {}
}
