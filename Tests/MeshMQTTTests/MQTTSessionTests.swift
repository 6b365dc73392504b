import Foundation
import MeshMQTT
import MeshportTestSupport
import Synchronization
import Testing

/// MQTT 5 with a session the broker keeps (`MQTTSession.persistent`) and the blocking
/// `receive` handoff, against a real Mosquitto.
@Suite(.timeLimit(.minutes(1))) struct MQTTSessionTests {
    final class Received: Sendable {
        let texts = Mutex<[String]>([])
    }

    static func member(_ broker: MosquittoProcess, id: String, into received: Received, group: String = "keep") throws -> MQTTClient {
        let options = MQTTClientOptions(clientID: id, retryMin: .milliseconds(200), session: .persistent(expirySeconds: 600)) { message in
            received.texts.withLock { $0.append(message.text) }
        }
        return try MQTTClient(broker: try MQTTBrokerURL(parsing: broker.url()), options: options)
    }

    @Test func aPersistentSessionKeepsTheSharedQueueWhileTheClientIsAway() async throws {
        let broker = try await MosquittoProcess()
        let received = Received()
        let first = try Self.member(broker, id: "keeper", into: received)
        try await first.subscribe("$share/keep/test/kept")
        await first.start()
        #expect(await waitForState(first, isConnected) == .connected)
        #expect(try await eventually { await first.grantedFilters.contains("$share/keep/test/kept") })
        await first.close()

        let publisher = try makeClient(broker.url())
        await publisher.start()
        for index in 0..<10 { try await publisher.publish(MQTTMessage(topic: "test/kept", text: "\(index)")) }
        #expect(try await eventually { await publisher.stats.delivered == 10 })

        // The same client id again: the broker kept the subscription and queued the messages.
        let again = try Self.member(broker, id: "keeper", into: received)
        await again.start()
        #expect(try await eventually { received.texts.withLock { $0.count } >= 10 })
        #expect(received.texts.withLock { $0 } == (0..<10).map(String.init))
        #expect(await again.stats.incomingDropped == 0)
        for client in [again, publisher] { await client.close() }
    }

    @Test func aCleanSessionForgetsTheClient() async throws {
        let broker = try await MosquittoProcess()
        let first = try makeClient(broker.url(), id: "forgotten")
        try await first.subscribe("test/forgotten")
        await first.start()
        #expect(await waitForState(first, isConnected) == .connected)
        await first.close()
        let publisher = try makeClient(broker.url())
        await publisher.start()
        try await publisher.publish(MQTTMessage(topic: "test/forgotten", text: "lost"))
        #expect(try await eventually { await publisher.stats.delivered == 1 })
        let again = try makeClient(broker.url(), id: "forgotten")
        await again.start()
        #expect(await waitForState(again, isConnected) == .connected)
        #expect(await nextMessage(again, within: 1) == nil)
        for client in [again, publisher] { await client.close() }
    }

    func eventually(within seconds: Double = 20, _ condition: @Sendable () async -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }
}
