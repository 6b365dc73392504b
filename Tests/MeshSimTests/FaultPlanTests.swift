import Foundation
import MeshCodec
import MeshConformanceCommands
import MeshSim
import Testing

/// FaultPlan's decisions without any I/O, and the scenario's `faults` section.
@Suite(.timeLimit(.minutes(1))) struct FaultPlanTests {
    /// An echo answer as the link writes it: header and payload.
    static func framed(_ i: Int) -> [UInt8] {
        (try? FrameEncoder.encode([ConformanceCommand.echo, UInt8(truncatingIfNeeded: i), 0xA5, 0x5A], direction: .fromRadio)) ?? []
    }

    static func decisions(_ faults: SimFaults, link: Int = 1, count: Int = 300) -> (received: [FaultPlan.Reception], written: [[UInt8]]) {
        var plan = FaultPlan(faults, link: link)
        let received = (0..<count).map { _ in plan.received() }
        let written = (0..<count).map { plan.write(framed($0)) }
        return (received, written)
    }

    @Test func dropsExactlyAtTheChosenFrame() {
        var plan = FaultPlan(SimFaults(dropLinkAtFrame: 3))
        let r = (1...6).map { _ in plan.received() }
        #expect(r.map(\.dropsLink) == [false, false, true, false, false, false])
        #expect(r.allSatisfy { $0.answered && $0.stall == .zero }, "the third frame is answered, then the link drops")
        #expect(plan.framesReceived == 6)
    }

    @Test func stallsAtTheChosenFrame() {
        var plan = FaultPlan(SimFaults(stallAtFrame: 2, stallSeconds: 1.5))
        #expect((1...4).map { _ in plan.received() } == [.init(), .init(stall: .milliseconds(1500)), .init(), .init()])
    }

    @Test func sameSeedSameDecisions() {
        let faults = SimFaults(dropChance: 0.3, corruptChance: 0.3, seed: 42)
        let a = Self.decisions(faults), b = Self.decisions(faults)
        #expect(a.received == b.received && a.written == b.written)
        var other = faults
        other.seed = 43
        #expect(Self.decisions(other).received != a.received && Self.decisions(other).written != a.written)
        #expect(Self.decisions(faults, link: 2).received != a.received, "each link has its own sequence")
    }

    /// The drops do not move when only the corruption (or the pushes written) changes.
    @Test func receivingAndWritingDrawApart() {
        var plan = FaultPlan(SimFaults(dropChance: 0.3, corruptChance: 0.5, seed: 7))
        var quiet = FaultPlan(SimFaults(dropChance: 0.3, seed: 7))
        let busy = (0..<200).map { i -> FaultPlan.Reception in
            _ = plan.write(Self.framed(i))
            return plan.received()
        }
        #expect(busy == (0..<200).map { _ in quiet.received() })
    }

    @Test(arguments: [0.0, 1.0]) func chanceZeroNeverOneAlways(p: Double) {
        let d = Self.decisions(SimFaults(dropChance: p, corruptChance: p, seed: 9), count: 2000)
        #expect(d.received.allSatisfy { $0.dropsLink == (p == 1) && $0.answered == (p == 0) })
        let changed = d.written.enumerated().map { i, out in zip(out, Self.framed(i)).filter { $0 != $1 }.count }
        #expect(changed.allSatisfy { $0 == (p == 1 ? 1 : 0) }, "a corrupted frame has exactly one byte changed")
        #expect(zip(d.written, (0..<2000).map(Self.framed)).allSatisfy { $0.count == $1.count })
    }

    @Test func chanceIsRoughlyKept() {
        let d = Self.decisions(SimFaults(dropChance: 0.25, corruptChance: 0.1, seed: 3), count: 10_000)
        #expect((2200...2800).contains(d.received.filter(\.dropsLink).count))
        let corrupted = d.written.enumerated().filter { $1 != Self.framed($0) }.count
        #expect((800...1200).contains(corrupted))
    }

    /// Every byte can be hit: the marker and the length (a bad frame) as well as the payload.
    @Test func corruptionReachesHeaderAndPayload() {
        let d = Self.decisions(SimFaults(corruptChance: 1, seed: 5), count: 500)
        var hit = Set<Int>()
        for (i, out) in d.written.enumerated() { hit.formUnion(out.indices.filter { out[$0] != Self.framed(i)[$0] }) }
        #expect(hit == Set(Self.framed(0).indices))
    }

    @Test func emptyFaults() {
        #expect(SimFaults().isEmpty && SimFaults(dropChance: 0, stallSeconds: 3).isEmpty)
        #expect(!SimFaults(delayMs: 1).isEmpty && !SimFaults(stallAtFrame: 1).isEmpty)
        #expect(SimFaults().description == "none")
        #expect(SimFaults(dropLinkAtFrame: 3, delayMs: 200, seed: 7).description == "drop after frame 3, delay 200 ms (seed 7, frames counted per link)")
    }

    @Test func scenarioFaults() throws {
        let json = #"{"seed": 4, "faults": {"dropLinkAtFrame": 3, "delayMs": 50, "stallAtFrame": 2}}"#
        let s = try JSONDecoder().decode(Scenario.self, from: Data(json.utf8))
        #expect(try s.faults() == SimFaults(dropLinkAtFrame: 3, delayMs: 50, stallAtFrame: 2, stallSeconds: 5, seed: 4))
        #expect(try s.faults(seed: 9)?.seed == 9, "the command line's seed")
        var own = s
        own.faults?.seed = 11
        #expect(try own.faults(seed: 9)?.seed == 11, "the section's own seed first")
        #expect(try Scenario().faults() == nil)
        #expect(FaultSpec(delayMs: 5, seed: 1).merging(FaultSpec(delayMs: 7, corruptChance: 0.5)) == FaultSpec(delayMs: 7, corruptChance: 0.5, seed: 1))
    }

    @Test(arguments: [
        (FaultSpec(dropChance: 1.5), "faults.dropChance: 1.5 is not between 0 and 1"),
        (FaultSpec(corruptChance: -0.1), "faults.corruptChance: -0.1 is not between 0 and 1"),
        (FaultSpec(corruptChance: .nan), "faults.corruptChance: nan is not between 0 and 1"),
        (FaultSpec(dropLinkAtFrame: 0), "faults.dropLinkAtFrame: 0 is not a frame number (frames count from 1)"),
        (FaultSpec(stallAtFrame: -2), "faults.stallAtFrame: -2 is not a frame number (frames count from 1)"),
        (FaultSpec(delayMs: -1), "faults.delayMs: -1 ms is outside 0...60000"),
        (FaultSpec(stallAtFrame: 1, stallSeconds: 4000), "faults.stallSeconds: 4000.0 s is outside 0...3600"),
        (FaultSpec(stallSeconds: 2), "faults.stallSeconds: needs stallAtFrame"),
    ] as [(FaultSpec, String)])
    func badFaultsSayWhatAndWhere(spec: FaultSpec, message: String) {
        var s = Scenario()
        s.faults = spec
        #expect {
            _ = try s.faults()
        } throws: { error in
            "\(error)" == message
        }
    }
}
