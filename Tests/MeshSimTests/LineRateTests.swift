import Foundation
import MeshConformanceCommands
import MeshSim
import MeshSimServe
import MeshportTestSupport
import Testing

/// `meshport sim --pty --baud N` (Modules/MeshSimServe/LineRate.swift): the line's speed in
/// both directions, on a real pty. Only the lower bound is checked: a loaded machine can only
/// make a paced line slower, never faster.
@Suite(.timeLimit(.minutes(1))) struct LineRateTests {
    @Test func aLineRateIsTenBitsAByteInMillisecondBursts() throws {
        let line = try LineRate(baud: 115_200)
        #expect(line.description == "115200 Bd")
        #expect(line.duration(of: 11_520) == .seconds(1))
        #expect(line.burst == 11)
        #expect(try LineRate(baud: 300).burst == 1)
        for baud in [0, -9600, 299, 12_000_001] {
            #expect(throws: PeerError.self) { try LineRate(baud: baud) }
        }
    }

    /// A 150-byte echo at 9,600 Bd: 153 bytes each way (the frame header included), 159 ms
    /// each; the answer comes whole, after both have crossed.
    @Test func aPacedPtyCarriesFramesWholeAndNoFasterThanTheLine() async throws {
        let radio = SimRadio(state: try Scenario().state(seed: 5), clock: ManualSimClock())
        let pty = try PtyPeer(serve: simFrames(radio, lineRate: try LineRate(baud: 9600)))
        defer { pty.close() }
        let app = try AppLink(pty: pty.slavePath)
        let echo = [ConformanceCommand.echo] + (1...149).map { UInt8($0) }
        let start = ContinuousClock.now
        #expect(try await offPool { try app.call(echo) } == echo)
        let took = ContinuousClock.now - start
        let wire = try LineRate(baud: 9600).duration(of: 2 * 153)
        #expect(took >= wire, "the answer came after \(took), the line needs \(wire)")
    }
}
