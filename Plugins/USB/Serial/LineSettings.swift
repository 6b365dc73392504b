/// The serial line a chip is set up for. MeshCore radios run 115200 8N1 with no flow control;
/// only the rate is settable. DTR and RTS are nil ("leave alone") unless the URL sets them.
public struct LineSettings: Sendable, Equatable {
    public var baud: Int
    public var dtr: Bool?
    public var rts: Bool?
    /// FTDI latency timer: how long the chip holds a short IN packet before sending it.
    public var latencyMs: Int

    public init(baud: Int = 115_200, dtr: Bool? = nil, rts: Bool? = nil, latencyMs: Int = 1) {
        self.baud = baud
        self.dtr = dtr
        self.rts = rts
        self.latencyMs = latencyMs
    }
}
