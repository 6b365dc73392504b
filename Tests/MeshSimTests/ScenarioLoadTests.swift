import MeshCodec
@testable import MeshSim
import Testing

/// Scenario knobs for exercising clients: a queue far beyond the firmware's 16, and a board
/// that caps transmit power below what it accepts.
@Suite(.timeLimit(.minutes(1))) struct ScenarioLoadTests {
    @Test func thousandsOfMessagesWaitInALargeQueue() throws {
        var radio = RadioSpec()
        radio.offlineQueueSize = 1000
        let events = (0..<1000).map { EventSpec(at: 0, dm: MessageSpec(from: "a", text: "queued #\($0)")) }
        var s = try Scenario(radio: radio, nodes: [NodeSpec(id: "a")], events: events).state()
        _ = SimHandler.advance(&s, to: .seconds(1))
        #expect(s.offlineQueue.count == 1000 && s.offlineQueue.dropped == 0)
        radio.offlineQueueSize = 1001
        #expect { _ = try Scenario(radio: radio).state() } throws: { "\($0)".hasPrefix("radio.offlineQueueSize: 1001 is outside 1...1000") }
    }

    @Test func aCappedBoardKeepsLessPowerThanAsked() async throws {
        var radio = RadioSpec()
        radio.txPowerCap = 14
        let sim = SimRadio(state: try Scenario(radio: radio).state())
        #expect(await sim.handle(.setRadioTxPower(20)) == [.response(.ok(value: nil))], "accepted, as the board does")
        let info = await sim.handle(.appStart(AppStart(appName: "test")))
        guard case let .response(.selfInfo(me))? = info.first else { Issue.record("\(info)"); return }
        #expect(me.txPower == 14)
        #expect(await sim.handle(.setRadioTxPower(12)) == [.response(.ok(value: nil))])
        let second = await sim.handle(.appStart(AppStart(appName: "test")))
        guard case let .response(.selfInfo(again))? = second.first else { Issue.record("APP_START answered \(second), not SELF_INFO"); return }
        #expect(again.txPower == 12, "below the cap, kept as written")
        radio.txPowerCap = 30
        #expect { _ = try Scenario(radio: radio).state() } throws: { "\($0)".hasPrefix("radio.txPowerCap: 30 dBm is outside -9...20") }
    }
}
