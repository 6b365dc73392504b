import Foundation
import Testing

@testable import MeshportServer

/// The events stream: fan-out in order to every client, a bounded buffer per client, and
/// slow clients closed instead of waited for.
@Suite(.timeLimit(.minutes(2))) struct EventsTests {
    @Test func overflowEndsOnlyTheSlowSubscriber() async throws {
        let hub = EventBroadcaster(capacity: 3)
        let slow = hub.subscribe()
        let fast = hub.subscribe()
        var fastSeen: [String] = []
        var iterator = fast.events.makeAsyncIterator()
        for n in 1...5 {
            hub.publish("e\(n)")
            if let e = await iterator.next() { fastSeen.append(e) }
        }
        #expect(fastSeen == ["e1", "e2", "e3", "e4", "e5"])
        #expect(!fast.overflowed)
        // The slow one keeps what fit, in order, then its stream ends marked.
        var slowSeen: [String] = []
        for await e in slow.events { slowSeen.append(e) }
        #expect(slowSeen == ["e1", "e2", "e3"])
        #expect(slow.overflowed)
        #expect(hub.subscriberCount == 1 && hub.droppedCount == 1)
        fast.cancel()
        #expect(hub.subscriberCount == 0)
    }

    @Test func everyClientGetsEveryEventInOrder() async throws {
        let world = try await ServerWorld(syntheticEvents: true)
        var clients: [RawWebSocket] = []
        for _ in 0..<3 {
            let client = try await RawWebSocket.connect(port: world.port)
            #expect(RawWebSocket.object(try await client.next())["type"] as? String == "hello")
            clients.append(client)
        }
        #expect(try await world.send("POST", "/api/test/events", ["count": 300]).status == 200)
        for client in clients {
            var seen: [Int] = []
            while seen.count < 300 {
                let event = try await client.event("test event \(seen.count)") { $0["type"] as? String == "test" }
                seen.append(Int(event["text"] as? String ?? "") ?? -1)
            }
            #expect(seen == Array(0..<300))
            await client.close()
        }
    }

    @Test func aClientThatStopsReadingIsClosedAndOthersAreNotHeldUp() async throws {
        let world = try await ServerWorld(serveArguments: ["--event-buffer", "1000"], syntheticEvents: true)
        let stalled = try StalledClient(port: world.port)
        let reader = try await RawWebSocket.connect(port: world.port)
        _ = try await reader.event("hello") { $0["type"] as? String == "hello" }
        // Batches of 500 events of 2 KB: the reader takes each whole batch before the next is
        // sent, so it is never a buffer behind; the stalled client's socket buffers fill (a few
        // MB on loopback: small events took over 100 batches, too many for a loaded machine's
        // 90 s), then its 1,000 events, and the server gives up on it.
        let batch = 500
        var batches = 0
        var dropped = false
        let deadline = ContinuousClock.now + .seconds(90)
        while !dropped, batches < 200, ContinuousClock.now < deadline {
            #expect(try await world.send("POST", "/api/test/events", ["count": batch, "padding": 2048]).status == 200)
            var seen: [Int] = []
            while seen.count < batch {
                let event = try await reader.event("test event \(seen.count) of batch \(batches)") { $0["type"] as? String == "test" }
                seen.append(Int(event["text"] as? String ?? "") ?? -1)
            }
            #expect(seen == Array(0..<batch), "batch \(batches)")
            batches += 1
            dropped = try await world.get("/metrics").text.contains("meshport_websocket_clients_dropped_total 1")
        }
        #expect(dropped, "the stalled client was not dropped after \(batches) batches of \(batch) events")
        // Its connection is closed by the server.
        var closed = false
        let closeDeadline = ContinuousClock.now + .seconds(30)
        while !closed, ContinuousClock.now < closeDeadline {
            closed = stalled.serverClosed()
            if !closed { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(closed)
        await reader.close()
    }
}
