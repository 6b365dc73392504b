import Foundation
import Glibc
import MeshCodec
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
            let worker = IngestWorker(settings: try IngestTest.settings(broker, dir: dir, name: "w\(index)"), sink: sink) { _ in }
            try await worker.start()
            workers.append(worker)
        }
        for worker in workers { #expect(try await IngestTest.eventually { await worker.isSubscribed }) }
        try await IngestTest.publish(broker, range: 0..<200)
        #expect(try await IngestTest.eventually { sinks.map(\.raws.count).reduce(0, +) >= 200 })
        try await Task.sleep(for: .milliseconds(300))
        let written = sinks.flatMap(\.raws)
        #expect(written.count == 200, "every message written once")
        #expect(Set(written) == Set((0..<200).map(IngestTest.raw)))
        #expect(sinks.allSatisfy { !$0.raws.isEmpty }, "both workers had a share: \(sinks.map(\.raws.count))")
        for worker in workers {
            let counts = await worker.counts
            #expect(counts.received == counts.written && counts.spoolDepth == 0 && counts.rejectedTotal == 0)
            await worker.stop()
        }
    }

    @Test func aSinkThatFailsHoldsTheBrokerBackAndLosesNothing() async throws {
        let broker = try await MosquittoProcess()
        let dir = TempDir()
        let sink = TestSink(failing: true)
        let log = LogLines()
        let worker = IngestWorker(settings: try IngestTest.settings(broker, dir: dir, name: "slow", batchSize: 5, spoolBound: 10), sink: sink) {
            log.add($0)
        }
        try await worker.start()
        #expect(try await IngestTest.eventually { await worker.isSubscribed })
        try await IngestTest.publish(broker, range: 0..<100)
        // The spool fills to its bound, then the callback waits: the broker keeps the rest.
        #expect(try await IngestTest.eventually { await worker.counts.spoolDepth >= 10 })
        try await Task.sleep(for: .milliseconds(500))
        let held = await worker.counts
        #expect(held.spoolDepth == 11 && held.received == 11, "one message over the bound is written, then the callback waits: \(held)")
        #expect(held.sinkRetries > 0 && sink.raws.isEmpty)
        sink.setFailing(false)
        #expect(try await IngestTest.eventually { sink.raws.count >= 100 })
        let drained = await worker.counts
        #expect(Set(sink.raws) == Set((0..<100).map(IngestTest.raw)) && sink.raws.count == 100)
        #expect(drained.spoolDepth == 0 && drained.deepestSpoolDepth == 11 && drained.received == 100)
        #expect(log.count(containing: "cannot be written") == 1 && log.count(containing: "is back") == 1, "\(log.all)")
        await worker.stop()
    }

    @Test func aWorkerKilledMidStreamLosesNothingOnceStartedAgain() async throws {
        let broker = try await MosquittoProcess()
        let dir = TempDir()
        let sinkFile = dir.path("written.txt")
        let clientID = "killed-\(UUID().uuidString.prefix(6))"
        func launch() async throws -> Process {
            let process = Process()
            process.executableURL = try builtExecutable("MeshportTestIngestWorker")
            process.arguments = [broker.url(), "kill-test", clientID, dir.path("spool"), sinkFile]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            let reader = PipeReader(out.fileHandleForReading)
            try process.run()
            #expect(await reader.firstLine(within: 30) && reader.current.hasPrefix("subscribed"))
            return process
        }
        @Sendable func written() -> Set<String> {
            // Nothing written yet while the file does not exist.
            let text = FileManager.default.contents(atPath: sinkFile).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return Set(text.split(separator: "\n").map(String.init).filter { $0.count == 12 })
        }
        let first = try await launch()
        let publishing = Task { try await IngestTest.publish(broker, range: 0..<400) }
        #expect(try await IngestTest.eventually { written().count >= 50 })
        kill(first.processIdentifier, SIGKILL)
        await offPool { while first.isRunning { usleep(10_000) } }
        try await publishing.value
        let second = try await launch()
        let expected = Set((0..<400).map { Hex.encode(IngestTest.raw($0)).uppercased() })
        #expect(try await IngestTest.eventually(within: 60) { written() == expected }, "\(expected.subtracting(written()).count) missing")
        kill(second.processIdentifier, SIGKILL)
        await offPool { while second.isRunning { usleep(10_000) } }
    }
}
