/// Faults a simulated radio's stream link injects, for service and reliability tests (a
/// client's reconnects, timeouts and resynchronisation). Configuration only: a `FaultPlan`
/// per link makes the decisions, and everything random follows from `seed`.
public struct SimFaults: Hashable, Sendable, CustomStringConvertible {
    /// Close the link right after answering the N-th frame received on it (from 1, per link).
    public var dropLinkAtFrame: Int?
    /// Chance, per received frame, that the link closes before the answer is written (the
    /// radio still handles the frame, as when a link dies mid-exchange).
    public var dropChance: Double
    /// Every answer and push is written this much later, in order.
    public var delayMs: Int
    /// Chance, per written frame, that one byte of it (payload or 3-byte header) is changed.
    public var corruptChance: Double
    /// At the N-th received frame the link stops reading and writing for `stallSeconds`,
    /// stays open, then answers that frame and carries on.
    public var stallAtFrame: Int?
    public var stallSeconds: Double
    public var seed: UInt64

    public static let defaultStallSeconds = 5.0

    public init(dropLinkAtFrame: Int? = nil, dropChance: Double = 0, delayMs: Int = 0, corruptChance: Double = 0,
                stallAtFrame: Int? = nil, stallSeconds: Double = SimFaults.defaultStallSeconds, seed: UInt64 = 1) {
        self.dropLinkAtFrame = dropLinkAtFrame
        self.dropChance = dropChance
        self.delayMs = delayMs
        self.corruptChance = corruptChance
        self.stallAtFrame = stallAtFrame
        self.stallSeconds = stallSeconds
        self.seed = seed
    }

    /// Nothing to inject: a link with these faults behaves as one without.
    public var isEmpty: Bool {
        dropLinkAtFrame == nil && !(dropChance > 0) && delayMs <= 0 && !(corruptChance > 0) && stallAtFrame == nil
    }

    /// One line for logs: "drop after frame 3, delay 200 ms (seed 7)".
    public var description: String {
        var parts: [String] = []
        if let n = dropLinkAtFrame { parts.append("drop after frame \(n)") }
        if dropChance > 0 { parts.append("drop chance \(dropChance)") }
        if delayMs > 0 { parts.append("delay \(delayMs) ms") }
        if corruptChance > 0 { parts.append("corrupt chance \(corruptChance)") }
        if let n = stallAtFrame { parts.append("stall \(stallSeconds) s at frame \(n)") }
        return parts.isEmpty ? "none" : "\(parts.joined(separator: ", ")) (seed \(seed), frames counted per link)"
    }
}
