import Foundation
import MeshMQTT
import MeshportTestSupport
import Testing

/// MQTTClient against a real Mosquitto on loopback, checked by an independent `mosquitto_sub`.
@Suite(.timeLimit(.minutes(3))) struct MQTTClientTests {
    @Test func publishesAndSubscribesOverPlainMQTT() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/plain"])
        let client = try makeClient(broker.url())
        await client.start()
        try await client.subscribe("test/echo/#")
        #expect(await waitForState(client, isConnected) == .connected)
        try await client.publish(MQTTMessage(topic: "test/plain", text: "hello"))
        #expect(await peer.waitUntil { $0.contains("test/plain hello") }.contains("test/plain hello"))

        #expect(await waitForGrant(client, "test/echo/#"))
        try await publishWithTool(broker, topic: "test/echo/1", text: "from the tool")
        let message = await nextMessage(client)
        #expect(message?.topic == "test/echo/1")
        #expect(message?.text == "from the tool")
        await client.close()
    }

    /// A QoS 0 burst far larger than the backlog, while connected: nothing waits for Paho's
    /// completions, so the backlog never fills and every message arrives, in order. (Sending
    /// 32 at a time, each slot freed by a completion through the actor, dropped most of a
    /// gateway's burst: the uplink bench at 100,000 packets/s delivered 10,719 of 40,000.)
    @Test func aQoS0BurstLargerThanTheBacklogArrivesWhole() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/burst"])
        let client = try makeClient(broker.url(), capacity: 100)
        await client.start()
        #expect(await waitForState(client, isConnected) == .connected)
        let count = 3000
        for index in 0..<count {
            try await client.publish(MQTTMessage(topic: "test/burst", text: "\(index)", qos: .atMostOnce))
        }
        let lines = await peer.waitUntil(within: 30) { numbers($0, on: "test/burst").count >= count }
        #expect(numbers(lines, on: "test/burst") == Array(0..<count))
        #expect(await client.stats.dropped == 0)
        await client.close()
    }

    @Test func retainedMessagesReachLaterSubscribers() async throws {
        let broker = try await MosquittoProcess()
        let client = try makeClient(broker.url())
        await client.start()
        try await client.publish(MQTTMessage(topic: "test/status", text: "online", retain: true))
        #expect(await waitForState(client, isConnected) == .connected)
        for _ in 0..<100 where await client.stats.queued > 0 { try await Task.sleep(for: .milliseconds(50)) }
        let later = try await MosquittoSubscriber(broker, filters: ["test/status"])
        #expect(await later.waitUntil { $0.contains("test/status online") }.contains("test/status online"))
        await client.close()
    }

    @Test func connectsOverTLSWithTheTestCA() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/tls"])
        let client = try makeClient(broker.url("mqtts", query: "ca=\(broker.caFile)"))
        await client.start()
        try await client.publish(MQTTMessage(topic: "test/tls", text: "sealed"))
        #expect(await waitForState(client, isConnected) == .connected)
        #expect(await peer.waitUntil { $0.contains("test/tls sealed") }.contains("test/tls sealed"))
        await client.close()
    }

    @Test func refusesABrokerItCannotVerify() async throws {
        let broker = try await MosquittoProcess()
        // Without ?ca= the system's CAs are used, and none of them signed the test broker.
        let client = try makeClient(broker.url("mqtts"))
        await client.start()
        let state = await waitForState(client) { if case .waiting = $0 { true } else { false } }
        guard case .waiting(.tls(_, let detail), _) = state else {
            Issue.record("expected a TLS failure, got \(String(describing: state))")
            return
        }
        #expect(detail.contains("certificate"))
        await client.close()
    }

    @Test func publishesOverWebSockets() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/ws"])
        let client = try makeClient(broker.url("ws"))
        await client.start()
        try await client.publish(MQTTMessage(topic: "test/ws", text: "framed"))
        #expect(await waitForState(client, isConnected) == .connected)
        #expect(await peer.waitUntil { $0.contains("test/ws framed") }.contains("test/ws framed"))
        await client.close()
    }

    @Test func wrongPasswordIsATypedRefusalRetriedWithBackoffUntilRenewed() async throws {
        let broker = try await MosquittoProcess()
        let client = try makeClient(broker.url(password: "wrong"))
        let states = await client.stateUpdates()
        await client.start()
        var delays: [Duration] = []
        var refusals = 0
        let refused = MQTTError.notAuthorized(broker: "mqtt://meshport:***@127.0.0.1:\(broker.plainPort)", username: "meshport")
        for await state in states {
            guard case .waiting(let error, let retryIn) = state else { continue }
            // Mosquitto answers CONNACK 5 and closes at once; on a loaded machine Paho now and
            // then sees the close first and reports a socket error for that attempt.
            if error == refused {
                refusals += 1
                #expect(error.description.contains("check the user name and password"))
            } else {
                #expect("\(error)".contains("socket error"), "neither the refusal nor the close: \(error)")
            }
            delays.append(retryIn)
            if delays.count == 3 { break }
        }
        #expect(refusals >= 1, "no attempt was reported as refused")
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800)])
        // A renewed password (a token's next value) is used from the next attempt on.
        await client.updateCredentials(username: "meshport", password: MosquittoProcess.users["meshport"])
        #expect(await waitForState(client, isConnected) == .connected)
        await client.close()
    }

    @Test func theACLLimitsWhatAUserMaySubscribeAndPublish() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["allowed/#", "test/#"])
        let client = try makeClient(broker.url(user: "limited"))
        await client.start()
        try await client.subscribe("test/#")
        try await client.subscribe("allowed/in")
        #expect(await waitForState(client, isConnected) == .connected)
        try await client.publish(MQTTMessage(topic: "test/forbidden", text: "dropped"))
        try await client.publish(MQTTMessage(topic: "allowed/out", text: "passed"))
        let lines = await peer.waitUntil { $0.contains("allowed/out passed") }
        #expect(lines.contains("allowed/out passed"))
        #expect(!lines.contains("test/forbidden dropped"))

        // Mosquitto 2.0 grants a subscription its ACL denies and then delivers nothing on it:
        // of two messages published in this order, only the allowed one arrives.
        #expect(await waitForGrant(client, "test/#"))
        #expect(await waitForGrant(client, "allowed/in"))
        try await publishWithTool(broker, topic: "test/secret", text: "withheld")
        try await publishWithTool(broker, topic: "allowed/in", text: "delivered", user: "limited")
        let first = await nextMessage(client)
        #expect(first?.topic == "allowed/in")
        #expect(first?.text == "delivered")
        await client.close()
    }

    @Test func aSharedSubscriptionSplitsMessagesBetweenItsMembers() async throws {
        let broker = try await MosquittoProcess()
        let members = try [makeClient(broker.url()), makeClient(broker.url())]
        for member in members {
            try await member.subscribe("$share/ingest/test/shared")
            await member.start()
            #expect(await waitForState(member, isConnected) == .connected)
            #expect(await waitForGrant(member, "$share/ingest/test/shared"))
        }
        let publisher = try makeClient(broker.url())
        await publisher.start()
        for index in 0..<20 { try await publisher.publish(MQTTMessage(topic: "test/shared", text: "\(index)")) }
        // Each member reads its share; together they have every message exactly once.
        let counts = await withTaskGroup(of: [Int].self) { group in
            for member in members {
                group.addTask {
                    var got: [Int] = []
                    while let message = await nextMessage(member, within: 3) { got.append(Int(message.text) ?? -1) }
                    return got
                }
            }
            var all: [[Int]] = []
            for await got in group { all.append(got) }
            return all
        }
        #expect(counts.flatMap { $0 }.sorted() == Array(0..<20))
        #expect(counts.allSatisfy { !$0.isEmpty })
        for client in members + [publisher] { await client.close() }
    }

    @Test func aBrokerThatIsNotThereIsUnreachableAndRetried() async throws {
        let port = try freeLoopbackPort()   // nothing listens there
        let client = try makeClient("mqtt://127.0.0.1:\(port)")
        #expect(await client.state == .idle)
        await client.start()
        let state = await waitForState(client) { if case .waiting = $0 { true } else { false } }
        guard case .waiting(.unreachable(let broker, _), let retryIn) = state else {
            Issue.record("expected the broker to be unreachable, got \(String(describing: state))")
            return
        }
        #expect(broker == "mqtt://127.0.0.1:\(port)")
        #expect(retryIn == .milliseconds(200))
        // Watched from here on: on a loaded machine attempt 2 may already be over.
        #expect(await waitForState(client) { if case let .connecting(attempt) = $0 { attempt >= 2 } else { false } } != nil)
        await client.close()
    }
}
