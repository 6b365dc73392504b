import Foundation
import MeshMQTT
import Testing

@testable import MeshIngest

/// The anchor's choice (AnchorGate.swift): plain copies written until its probe comes back on
/// the current connection, skipped after; shared copies always; probes never.
@Suite struct AnchorGateTests {
    static func message(_ topic: String, _ ids: [Int]) -> MQTTMessage {
        var message = MQTTMessage(topic: topic, text: "{}")
        message.subscriptionIdentifiers = ids
        return message
    }

    static let packets = "meshcore/AMS/ABCD/packets"
    static let (group, anchor) = (IngestSettings.Subscription.group.rawValue, IngestSettings.Subscription.anchor.rawValue)

    @Test func plainCopiesAreWrittenUntilTheProbeReturnsAndAgainAfterALostConnection() {
        let gate = AnchorGate()
        var ended: [Int] = []
        func admit(_ topic: String, _ ids: [Int]) -> Bool { gate.admit(Self.message(topic, ids)) { ended.append($0) } }
        #expect(admit(Self.packets, [Self.anchor]) && admit(Self.packets, [Self.anchor]))
        #expect(admit(Self.packets, [Self.group]))
        let probe = gate.newProbe(nonce: "first")
        #expect(!admit(probe, [Self.group]), "the probe's shared copy is not written and ends nothing")
        #expect(admit(Self.packets, [Self.anchor]))
        #expect(!admit("meshcore/meshport-anchor/stale/packets", [Self.anchor]), "another probe ends nothing")
        #expect(admit(Self.packets, [Self.anchor]) && ended.isEmpty)
        #expect(!admit(probe, [Self.anchor]))
        #expect(ended == [4])
        #expect(!admit(Self.packets, [Self.anchor]) && !admit(Self.packets, [Self.anchor]))
        #expect(admit(Self.packets, [Self.group]) && admit(Self.packets, [Self.anchor, Self.group]) && admit(Self.packets, []))
        #expect(gate.tally == AnchorGate.Tally(writtenAlone: 4, skipped: 2))

        gate.connectionLost()
        #expect(admit(Self.packets, [Self.anchor]))
        #expect(!admit(probe, [Self.anchor]) && ended == [4], "the last connection's probe ends nothing")
        let second = gate.newProbe(nonce: "second")
        #expect(!admit(second, [Self.anchor]) && ended == [4, 1])
        #expect(!admit(Self.packets, [Self.anchor]))
        #expect(gate.tally == AnchorGate.Tally(writtenAlone: 5, skipped: 3))
    }

    @Test func onlyOneWorkerOfAGroupIsItsAnchor() throws {
        let broker = try MQTTBrokerURL(parsing: "mqtt://127.0.0.1:1883")
        let folder = URL(fileURLWithPath: "/nonexistent/spool")
        let alone = IngestSettings(brokers: [broker], group: nil, anchor: true, clientID: "w", spoolFolder: folder)
        #expect(!alone.anchor && alone.subscriptions.allSatisfy { $0.identifier == nil })
        let anchor = IngestSettings(brokers: [broker], group: "g", anchor: true, clientID: "w", spoolFolder: folder)
        #expect(anchor.subscriptions.map(\.filter) == ["$share/g/meshcore/+/+/packets", "$share/g/meshcore/+/+/status", "meshcore/+/+/packets", "meshcore/+/+/status"])
        #expect(anchor.subscriptions.map(\.identifier) == [Self.group, Self.group, Self.anchor, Self.anchor])
        #expect(throws: IngestOptionsError.self) {
            try IngestOptions(mqtt: ["mqtt://127.0.0.1"], postgres: "postgres://u@h/d", singleWorker: true, anchor: true)
        }
    }
}
