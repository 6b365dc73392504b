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

    /// DTR and RTS the way FTDI's MODEM_CTRL and CP210x's SET_MHS take them: the high byte
    /// says which lines to change (0x01 DTR, 0x02 RTS), the low byte their levels. nil when
    /// neither is set.
    public var modemLinesWithMask: UInt16? {
        guard dtr != nil || rts != nil else { return nil }
        var value: UInt16 = 0
        if let dtr { value |= 0x0100 | (dtr ? 0x01 : 0) }
        if let rts { value |= 0x0200 | (rts ? 0x02 : 0) }
        return value
    }
}
