import MeshCodec
@testable import MeshSim
import Testing

/// The knobs messaging tests use: a node that direct packets never reach, and a node whose
/// ACKs come late.
@Suite(.timeLimit(.minutes(1))) struct DeliveryKnobTests {
    static func scenario(dropsDirect: Bool? = nil, ackDelayMs: Int? = nil) -> Scenario {
        var ann = NodeSpec(id: "ann")
        ann.name = "Ann"
        ann.knownPath = true
        ann.dropsDirect = dropsDirect
        ann.ackDelayMs = ackDelayMs
        return Scenario(seed: 5, nodes: [ann])
    }

    private func ann(_ s: SimRadioState) -> PublicKey { s.nodes.values.first { $0.name == "Ann" }!.publicKey }

    private func send(_ s: inout SimRadioState, attempt: UInt8, at now: Duration = .zero) throws -> Sent {
        let frames = SimHandler.handle(&s, .sendTextMessage(SendTextMessage(attempt: attempt, timestamp: 9, recipient: ann(s).prefix(), text: "hi")), now: now)
        guard case let .response(.sent(sent)) = frames.first else { throw Failure("SEND_TXT_MSG answered \(frames.map(\.name))") }
        return sent
    }

    private func confirmed(_ frames: [RadioFrame]) -> [AckCode] {
        frames.compactMap { if case let .push(.sendConfirmed(code, _)) = $0 { code } else { nil } }
    }

    @Test func aNodeThatDropsDirectPacketsAcksOnlyFloods() throws {
        var s = try Self.scenario(dropsDirect: true).state()
        #expect(s.nodes[ann(s)]?.dropsDirect == true)
        let direct = try send(&s, attempt: 0)
        #expect(!direct.flood)
        #expect(confirmed(SimHandler.advance(&s, to: .seconds(60))).isEmpty)
        #expect(SimHandler.handle(&s, .resetPath(ann(s)), now: .seconds(60)) == [.response(.ok(value: nil))])
        let flood = try send(&s, attempt: 2, at: .seconds(60))
        #expect(flood.flood && flood.ackCode != direct.ackCode)
        #expect(confirmed(SimHandler.advance(&s, to: .seconds(120))) == [flood.ackCode])
    }

    @Test func aSlowNodesAckArrivesAfterItsDelay() throws {
        var s = try Self.scenario(ackDelayMs: 20_000).state()
        let sent = try send(&s, attempt: 0)
        #expect(sent.suggestedTimeoutMs < 20_000)
        #expect(confirmed(SimHandler.advance(&s, to: .seconds(20))).isEmpty)
        #expect(confirmed(SimHandler.advance(&s, to: .seconds(60))) == [sent.ackCode])
    }

    @Test func anAckDelayOutOfRangeIsRefusedWhereItIs() throws {
        #expect(throws: ScenarioError("nodes[0].ackDelayMs", "-1 is outside 0...600000")) { try Self.scenario(ackDelayMs: -1).state() }
    }
}

private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
