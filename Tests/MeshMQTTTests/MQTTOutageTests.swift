import Foundation
import MeshMQTT
import MeshportTestSupport
import Testing

/// The broker going away: killed mid-stream, down while the backlog fills, and the client's
/// own process killed (its will).
@Suite(.timeLimit(.minutes(3))) struct MQTTOutageTests {
    @Test func qos1MessagesArriveInOrderAcrossABrokerKilledMidStream() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/stream"], sessionID: "peer-stream")
        try await broker.waitUntilSaved(after: Date())   // the peer's session survives the kill
        let client = try makeClient(broker.url())
        let states = await client.stateUpdates()
        let sawLoss = Task {
            for await state in states {
                if case .waiting(.connectionLost, _) = state { return true }
            }
            return false
        }
        await client.start()
        #expect(await waitForState(client, isConnected) == .connected)
        let count = 80
        for index in 0..<count {
            try await client.publish(MQTTMessage(topic: "test/stream", text: "\(index)"))
            if index == 30 {
                await broker.kill9()
            }
            if index == 50 {
                try await broker.start()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let lines = await peer.waitUntil(within: 30) { inOrderAtLeastOnce(numbers($0, on: "test/stream"), count: count) }
        let received = numbers(lines, on: "test/stream")
        #expect(inOrderAtLeastOnce(received, count: count), "received \(received)")
        let stats = await client.stats
        #expect(stats.dropped == 0)
        await client.close()
        #expect(await sawLoss.value)
    }

    @Test func aFullBacklogDropsTheOldestAndCountsThem() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/backlog"], sessionID: "peer-backlog")
        try await broker.waitUntilSaved(after: Date())
        await broker.kill9()
        let folder = TempDir()
        let client = try makeClient(broker.url(), capacity: 10, folder: folder.url)
        await client.start()
        for index in 0..<25 { try await client.publish(MQTTMessage(topic: "test/backlog", text: "\(index)")) }
        let stats = await client.stats
        #expect(stats.queued == 10)
        #expect(stats.dropped == 15)
        #expect(try pendingMessages(in: folder) == 10)

        try await broker.start()
        let lines = await peer.waitUntil { numbers($0, on: "test/backlog").last == 24 }
        #expect(numbers(lines, on: "test/backlog") == Array(15..<25))
        for _ in 0..<100 where await client.stats.queued > 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(await client.stats.queued == 0)
        #expect(try segmentFiles(in: folder).isEmpty, "every segment is deleted once all its messages are acknowledged")
        await client.close()
    }

    @Test func theBacklogFolderCarriesMessagesToTheNextProcess() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/carried"], sessionID: "peer-carried")
        try await broker.waitUntilSaved(after: Date())
        await broker.kill9()
        let folder = TempDir()
        let first = try makeClient(broker.url(), id: "carrier", folder: folder.url)
        for index in 0..<5 { try await first.publish(MQTTMessage(topic: "test/carried", text: "\(index)")) }
        await first.close()

        try await broker.start()
        let second = try makeClient(broker.url(), id: "carrier", folder: folder.url)
        #expect(await second.stats.queued == 5)
        await second.start()
        let lines = await peer.waitUntil { numbers($0, on: "test/carried").count >= 5 }
        #expect(numbers(lines, on: "test/carried") == Array(0..<5))
        await second.close()
    }

    @Test func theBrokerPublishesTheWillWhenTheClientProcessIsKilled() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/will"])
        let process = Process()
        process.executableURL = try builtExecutable("MeshportTestMQTTWill")
        process.arguments = [broker.url(), "test/will", "offline"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let out = PipeReader(pipe.fileHandleForReading)
        try process.run()
        #expect(await out.firstLine(within: 20))
        #expect(out.current.hasPrefix("connected"))
        #expect(!peer.received.contains("test/will offline"))
        kill(process.processIdentifier, SIGKILL)
        #expect(await waitForExit(process, within: 10))
        #expect(await peer.waitUntil { $0.contains("test/will offline") }.contains("test/will offline"))
    }

    @Test func aCleanCloseLeavesTheWillUnpublished() async throws {
        let broker = try await MosquittoProcess()
        let peer = try await MosquittoSubscriber(broker, filters: ["test/will", "test/last"])
        let client = try makeClient(broker.url(), will: MQTTMessage(topic: "test/will", text: "offline"))
        await client.start()
        #expect(await waitForState(client, isConnected) == .connected)
        await client.close()
        #expect(await client.state == .closed)
        // Published after the close, by another client: once it is in, a will would have been too.
        try await publishWithTool(broker, topic: "test/last", text: "after")
        let lines = await peer.waitUntil { $0.contains("test/last after") }
        #expect(lines.contains("test/last after"))
        #expect(!lines.contains("test/will offline"))
    }
}
