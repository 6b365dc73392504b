import Foundation
import Glibc
import MeshCodec
import MeshGateway
import MeshIngest
import MeshportTestSupport
import Testing

/// Ingest workers against a real Mosquitto (Tests/Support/MosquittoProcess.swift) and a test sink:
/// a shared group splits the stream, a sink that fails holds the broker back without losing
/// anything, and a worker killed with SIGKILL loses nothing once started again.
@Suite(.timeLimit(.minutes(2))) struct IngestWorkerTests {
    @Test func twoWorkersInOneGroupSplitTheStreamAndWriteEveryMessageOnce() async throws {
        let broker = try await MosquittoProcess()
        let dir = TempDir()
        let sinks = [TestSink(), TestSink()]
        var workers: [IngestWorker] = []
        for (index, sink) in sinks.enumerated() {
            let worker = IngestWorker(settings: try IngestTest.settings(broker, dir: dir, name: "w\(index)"), sink: sink)
            try await worker.start()
            workers.append(worker)
        }
        for worker in workers { #expect(try await IngestTest.eventually { await worker.isSubscribed }) }
        try await IngestTest.publish(broker, range: 0..<200)
        let status = StatusMessage.offline(origin: IngestFixtures.origin, at: IngestFixtures.heardAt)
        try await publishWithTool(broker, topic: IngestFixtures.topics.status, text: String(decoding: try GatewayJSON.encode(status), as: UTF8.self))
        try await publishWithTool(broker, topic: IngestFixtures.topics.packets, text: "{not json")
        #expect(try await IngestTest.eventually { sinks.map { $0.all.count }.reduce(0, +) >= 202 })
        try await Task.sleep(for: .milliseconds(300))
        let written = sinks.flatMap(\.raws)
        #expect(written.count == 200, "every message written once")
        #expect(Set(written) == Set((0..<200).map(IngestTest.raw)))
        #expect(sinks.allSatisfy { !$0.raws.isEmpty }, "both workers had a share: \(sinks.map(\.raws.count))")
        #expect(sinks.flatMap { $0.all.observers }.map(\.online) == [false])
        #expect(sinks.flatMap { $0.all.rejected }.map(\.topic) == [IngestFixtures.topics.packets])
        var rejected: [String: Int] = [:]
        for worker in workers {
            let counts = await worker.counts
            #expect(counts.received == counts.written && counts.spoolDepth == 0)
            rejected.merge(counts.rejected, uniquingKeysWith: +)
            await worker.stop()
        }
        #expect(rejected == ["bad-json": 1])
    }

    // Held back, the worker blocks Paho's callback, and with it Paho's lock for every client of
    // its process (a second at a time): it runs in a process of its own (Tests/Tools/TestIngestWorker).
    @Test func aSinkThatFailsHoldsTheBrokerBackAndLosesNothing() async throws {
        let broker = try await MosquittoProcess()
        let dir = TempDir()
        let sinkFile = dir.path("written.txt")
        #expect(FileManager.default.createFile(atPath: sinkFile + ".down", contents: nil))
        let worker = try await WorkerProcess(broker, dir: dir, clientID: "slow-\(UUID().uuidString.prefix(6))", bound: 10)
        try await IngestTest.publish(broker, range: 0..<100)
        // The spool fills to its bound, then the callback waits: the broker keeps the rest.
        #expect(try await IngestTest.eventually { worker.counts.depth >= 10 })
        try await Task.sleep(for: .milliseconds(500))
        let held = worker.counts
        // One message over the bound is written, then the callback waits; one more comes in per
        // second it waits (the spool's pause), so Paho's other threads get their turn. Without
        // the wait all 100 would be in within milliseconds.
        #expect(held.depth == held.received && (11..<40).contains(held.received), "\(held)")
        #expect(held.retries > 0 && held.written == 0 && WorkerProcess.written(sinkFile).isEmpty)
        try FileManager.default.removeItem(atPath: sinkFile + ".down")
        let expected = Set((0..<100).map { Hex.encode(IngestTest.raw($0)).uppercased() })
        #expect(try await IngestTest.eventually(within: 60) { WorkerProcess.written(sinkFile) == expected },
                "\(expected.subtracting(WorkerProcess.written(sinkFile)).count) missing")
        #expect(try await IngestTest.eventually { worker.counts.depth == 0 })
        let drained = worker.counts
        #expect((11..<40).contains(drained.deepest) && drained.received == 100 && drained.written == 100, "\(drained)")
        #expect(worker.log.components(separatedBy: "cannot be written").count == 2, "\(worker.log)")
        #expect(worker.log.components(separatedBy: "is back").count == 2, "\(worker.log)")
        await worker.kill()
    }

    @Test func aWorkerKilledMidStreamLosesNothingOnceStartedAgain() async throws {
        let broker = try await MosquittoProcess()
        let dir = TempDir()
        let sinkFile = dir.path("written.txt")
        let clientID = "killed-\(UUID().uuidString.prefix(6))"
        let first = try await WorkerProcess(broker, dir: dir, clientID: clientID)
        try await IngestTest.publish(broker, range: 0..<50)
        #expect(try await IngestTest.eventually(within: 60) { WorkerProcess.written(sinkFile).count == 50 })
        // The sink stops before the rest is published, so the spool holds messages not yet
        // written when the kill comes.
        #expect(FileManager.default.createFile(atPath: sinkFile + ".down", contents: nil))
        let publishing = Task { try await IngestTest.publish(broker, range: 50..<400) }
        #expect(try await IngestTest.eventually(within: 60) { first.counts.retries > 0 && first.counts.depth > 0 })
        await first.kill()
        try await publishing.value
        try FileManager.default.removeItem(atPath: sinkFile + ".down")
        let second = try await WorkerProcess(broker, dir: dir, clientID: clientID)
        let expected = Set((0..<400).map { Hex.encode(IngestTest.raw($0)).uppercased() })
        #expect(try await IngestTest.eventually(within: 60) { WorkerProcess.written(sinkFile) == expected },
                "\(expected.subtracting(WorkerProcess.written(sinkFile)).count) missing")
        #expect(second.log.contains("left in the spool are written first"), "\(second.log)")
        await second.kill()
    }
}

/// Tests/Tools/TestIngestWorker running as a process: its sink writes `dir/written.txt` and fails
/// while `written.txt.down` exists; its spool is `dir/spool`.
final class WorkerProcess: Sendable {
    struct Counts: Sendable, CustomStringConvertible {
        var received = 0, written = 0, depth = 0, deepest = 0, retries = 0
        var description: String { "received \(received), written \(written), depth \(depth), deepest \(deepest), retries \(retries)" }
    }

    private let process: Process
    private let out: PipeReader
    private let err: PipeReader

    init(_ broker: MosquittoProcess, dir: TempDir, clientID: String, bound: Int = 200) async throws {
        process = Process()
        process.executableURL = try builtExecutable("MeshportTestIngestWorker")
        process.arguments = [broker.url(), "ingest-test", clientID, dir.path("spool"), dir.path("written.txt"), String(bound)]
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        out = PipeReader(outPipe.fileHandleForReading)
        err = PipeReader(errPipe.fileHandleForReading)
        try process.run()
        guard await out.firstLine(within: 30), out.current.hasPrefix("subscribed") else {
            throw ProcessFailure("the worker did not subscribe: \(out.current) \(err.current)")
        }
    }

    /// The last counts the worker printed.
    var counts: Counts {
        guard let line = out.current.split(separator: "\n").last(where: { $0.hasPrefix("counts ") }) else { return Counts() }
        let n = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard n.count == 5 else { return Counts() }
        return Counts(received: n[0], written: n[1], depth: n[2], deepest: n[3], retries: n[4])
    }

    var log: String { err.current }

    /// SIGKILL, and waits until it is gone.
    func kill() async {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        await offPool { [process] in while process.isRunning { usleep(10_000) } }
    }

    /// The raw packets written so far, in hex.
    static func written(_ path: String) -> Set<String> {
        // Nothing written yet while the file does not exist.
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Set(text.split(separator: "\n").map(String.init).filter { $0.count == 12 })
    }

    deinit { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }
}
