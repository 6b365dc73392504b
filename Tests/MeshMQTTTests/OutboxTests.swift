import Testing
@testable import MeshMQTT

/// The send-side state machine: what goes to Paho next, and what waits for the broker.
@Suite struct OutboxTests {
    static func outbox(_ messages: [MQTTMessage], window: Int = 4) throws -> Outbox {
        var outbox = Outbox(backlog: try Backlog(capacity: 1000, folder: nil), window: window)
        for message in messages { try outbox.append(message) }
        outbox.connected()
        return outbox
    }

    /// Hands over what the outbox lets go, as Paho taking every message would.
    static func drain(_ outbox: inout Outbox) throws -> [String] {
        var sent: [String] = []
        while let entry = outbox.next() {
            sent.append(String(decoding: entry.message.payload, as: UTF8.self))
            try outbox.handedOver(entry)
        }
        return sent
    }

    /// Paho may never call back for a QoS 0 send (a partial write on a full socket): no QoS 0
    /// message may wait for that call, or a burst stops the client for good.
    @Test func qos0MessagesGoOutWithoutAnyCompletion() throws {
        var outbox = try Self.outbox((0..<100).map { MQTTMessage(topic: "t", text: "\($0)", qos: .atMostOnce) })
        #expect(try Self.drain(&outbox) == (0..<100).map { "\($0)" })
        #expect(outbox.backlog.count == 0 && outbox.inFlight.isEmpty && outbox.delivered == 100)
        try outbox.append(MQTTMessage(topic: "t", text: "later", qos: .atMostOnce))
        #expect(try Self.drain(&outbox) == ["later"])
    }

    @Test func qos1MessagesWaitForTheirAcknowledgementsWithinTheWindow() throws {
        var outbox = try Self.outbox((0..<10).map { MQTTMessage(topic: "t", text: "\($0)") }, window: 4)
        #expect(try Self.drain(&outbox) == ["0", "1", "2", "3"])
        let inFlight = outbox.inFlight.sorted()
        try outbox.acknowledged(inFlight[1])
        #expect(try Self.drain(&outbox) == ["4"])
        #expect(outbox.backlog.count == 9 && outbox.delivered == 1)
    }

    /// A QoS 0 message behind a QoS 1 one waiting for room in the window keeps its place.
    @Test func orderHoldsAcrossQoSLevels() throws {
        var outbox = try Self.outbox([MQTTMessage(topic: "t", text: "a"), MQTTMessage(topic: "t", text: "b"),
                                      MQTTMessage(topic: "t", text: "c", qos: .atMostOnce)], window: 1)
        #expect(try Self.drain(&outbox) == ["a"])
        try outbox.acknowledged(try #require(outbox.inFlight.first))
        #expect(try Self.drain(&outbox) == ["b", "c"])
        #expect(outbox.backlog.count == 1, "b waits for its acknowledgement")
    }

    @Test func aLostConnectionSendsAgainFromTheOldestUnacknowledged() throws {
        var outbox = try Self.outbox((0..<6).map { MQTTMessage(topic: "t", text: "\($0)") }, window: 3)
        #expect(try Self.drain(&outbox) == ["0", "1", "2"])
        try outbox.acknowledged(try #require(outbox.inFlight.min()))
        let staleEpoch = outbox.epoch
        outbox.connectionLost()
        let stale = outbox.failed(try #require(outbox.backlog.first(from: 0)).sequence, epoch: staleEpoch)
        #expect(!stale, "a stale failure is ignored")
        outbox.connected()
        #expect(try Self.drain(&outbox) == ["1", "2", "3"])
    }

    @Test func aFailedSendGoesAgainFromItOn() throws {
        var outbox = try Self.outbox((0..<4).map { MQTTMessage(topic: "t", text: "\($0)") }, window: 4)
        #expect(try Self.drain(&outbox) == ["0", "1", "2", "3"])
        let second = outbox.inFlight.sorted()[1]
        let again = outbox.failed(second, epoch: outbox.epoch)
        #expect(again)
        #expect(try Self.drain(&outbox) == ["1"], "the others are still in flight")
    }
}
