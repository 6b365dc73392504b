import MeshCodec

/// One link's fault decisions, event by event: pure (no I/O, no clock), so tests drive it
/// directly and a link replays its faults from the seed. Received and written frames draw
/// from separate generators, so pushes that happen to be written do not move the drops.
public struct FaultPlan: Hashable, Sendable {
    public let faults: SimFaults
    public private(set) var framesReceived = 0
    public private(set) var framesWritten = 0
    private var receiveRNG: SplitMix64
    private var writeRNG: SplitMix64

    /// What the link does with one received frame.
    public struct Reception: Hashable, Sendable {
        /// Read and write nothing for this long before answering (zero: no stall).
        public var stall: Duration
        /// The answer is written; false when the link closes first.
        public var answered: Bool
        /// Close the link after this frame (after its answer when `answered`).
        public var dropsLink: Bool

        public init(stall: Duration = .zero, answered: Bool = true, dropsLink: Bool = false) {
            self.stall = stall
            self.answered = answered
            self.dropsLink = dropsLink
        }
    }

    /// `link` numbers the links one radio serves (1, 2, ...): each gets its own random
    /// sequence, so a client that reconnects and repeats itself is not dropped at the same
    /// frame forever, while a run stays reproducible.
    public init(_ faults: SimFaults, link: Int = 1) {
        self.faults = faults
        var mix = SplitMix64(seed: faults.seed ^ (UInt64(truncatingIfNeeded: link) &* 0xD6E8_FEB8_6659_FD93))
        receiveRNG = SplitMix64(seed: mix.next())
        writeRNG = SplitMix64(seed: mix.next())
    }

    /// Answers and pushes are written this much later.
    public var delay: Duration { .milliseconds(max(0, faults.delayMs)) }

    /// The next frame has been received.
    public mutating func received() -> Reception {
        framesReceived += 1
        // Drawn for every frame, so the n-th frame's fate depends only on the seed and n.
        let lost = Self.happens(faults.dropChance, &receiveRNG)
        var r = Reception()
        if framesReceived == faults.stallAtFrame { r.stall = Self.duration(seconds: faults.stallSeconds) }
        if framesReceived == faults.dropLinkAtFrame { r.dropsLink = true }
        if lost {
            r.answered = false
            r.dropsLink = true
        }
        return r
    }

    /// A framed frame (header and payload) about to be written, as it goes out: unchanged,
    /// or with one byte changed, so the client sees a bad header or a garbled frame.
    public mutating func write(_ framed: [UInt8]) -> [UInt8] {
        framesWritten += 1
        guard Self.happens(faults.corruptChance, &writeRNG), !framed.isEmpty else { return framed }
        var out = framed
        let at = Int(writeRNG.next() % UInt64(framed.count))
        out[at] ^= UInt8.random(in: 1...0xFF, using: &writeRNG)   // never 0: the byte always changes
        return out
    }

    /// True with chance `p`: never for 0 (or NaN), always for 1.
    static func happens(_ p: Double, _ rng: inout SplitMix64) -> Bool {
        Double(rng.next() >> 11) * 0x1p-53 < p
    }

    /// Whole milliseconds; nonsense (negative, NaN, beyond a day) becomes no stall or a day.
    static func duration(seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .milliseconds(Int64((min(seconds, 86_400) * 1000).rounded()))
    }
}
