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

    /// A message matching a shared and a plain subscription of one client comes once for each,
    /// with that subscription's identifier; a broker restart brings back only the plain one.
    @Test func subscriptionIdentifiersSayWhichSubscriptionBroughtAMessage() async throws {
        let broker = try await MosquittoProcess()
        let identified = Mutex<[[Int]]>([])
        let options = MQTTClientOptions(clientID: "identified", retryMin: .milliseconds(200), session: .persistent(expirySeconds: 600)) { message in
            identified.withLock { $0.append(message.subscriptionIdentifiers) }
        }
        func connect() async throws -> MQTTClient {
            let client = try MQTTClient(broker: try MQTTBrokerURL(parsing: broker.url()), options: options)
            try await client.subscribe("$share/ids/test/ids", identifier: 9)
            try await client.subscribe("test/ids", identifier: 268_435_455)
            await client.start()
            return client
        }
        let client = try await connect()
        #expect(try await eventually { await client.grantedFilters.count == 2 })
        try await publishWithTool(broker, topic: "test/ids", text: "one")
        #expect(try await eventually { identified.withLock { $0.count } == 2 })
        #expect(Set(identified.withLock { $0 }) == [[9], [268_435_455]])
        await client.close()

        // Restarted while the client is away: what is published meanwhile is queued for the
        // plain subscription only, the one Mosquitto restored.
        let saved = Date()
        try await broker.waitUntilSaved(after: saved)
        await broker.kill9()
        try await broker.start()
        identified.withLock { $0 = [] }
        try await publishWithTool(broker, topic: "test/ids", text: "two")
        let again = try await connect()
        #expect(try await eventually { await again.grantedFilters.count == 2 }, "granted again on the new connection")
        #expect(try await eventually { identified.withLock { $0.count } >= 1 })
        #expect(identified.withLock { $0 } == [[268_435_455]])
        await #expect(throws: MQTTError.self) { try await again.subscribe("test/ids", identifier: 0) }
        await again.close()

        let clean = try makeClient(broker.url())
        await #expect(throws: MQTTError.self) { try await clean.subscribe("test/ids", identifier: 1) }
        await clean.close()
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
