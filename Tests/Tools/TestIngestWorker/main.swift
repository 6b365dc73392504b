// An ingest worker whose sink appends one line per hearing (its raw packet in hex) to a file
// and syncs it, failing while SINK_FILE.down exists: for the tests that kill the worker with
// SIGKILL mid-stream, and that hold it back with a failing sink (MeshIngestTests). A worker
// held back blocks Paho's callback, which holds Paho's lock for every client of the process:
// so it runs in a process of its own. Prints "subscribed" once both shared subscriptions are
// granted, then its counts every 50 ms ("counts RECEIVED WRITTEN DEPTH DEEPEST RETRIES").
// Usage: MeshportTestIngestWorker BROKER_URL GROUP CLIENT_ID SPOOL_FOLDER SINK_FILE [SPOOL_BOUND]
import Foundation
import Glibc
import MeshIngest
import MeshMQTT
import MeshRegion

struct LineFileSink: RegionSink {
    let path: String

    func write(_ batch: RegionBatch) async throws {
        if FileManager.default.fileExists(atPath: path + ".down") { throw SinkFailure(description: "the test sink is down") }
        let text = batch.hearings.map { $0.raw.map { String(format: "%02X", $0) }.joined() + "\n" }.joined()
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SinkFailure(description: "cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count, fsync(fd) == 0 else {
            throw SinkFailure(description: "cannot write \(path): errno \(errno)")
        }
    }
}

struct SinkFailure: Error, CustomStringConvertible {
    let description: String
}

let arguments = CommandLine.arguments
guard arguments.count == 6 || arguments.count == 7, let bound = Int(arguments.count == 7 ? arguments[6] : "200") else {
    FileHandle.standardError.write(Data("usage: MeshportTestIngestWorker BROKER_URL GROUP CLIENT_ID SPOOL_FOLDER SINK_FILE [SPOOL_BOUND]\n".utf8))
    exit(2)
}
do {
    let settings = IngestSettings(brokers: [try MQTTBrokerURL(parsing: arguments[1])], group: arguments[2], clientID: arguments[3],
                                  spoolFolder: URL(fileURLWithPath: arguments[4]), batchSize: min(50, bound), batchInterval: .milliseconds(20),
                                  spoolBound: bound, retryMin: .milliseconds(100), retryMax: .milliseconds(400))
    // Its log goes to stderr through swift-log's own handler.
    let worker = IngestWorker(settings: settings, sink: LineFileSink(path: arguments[5]))
    try await worker.start()
    while await !worker.isSubscribed { try await Task.sleep(for: .milliseconds(20)) }
    FileHandle.standardOutput.write(Data("subscribed\n".utf8))
    while true {
        let c = await worker.counts
        FileHandle.standardOutput.write(Data("counts \(c.received) \(c.written) \(c.spoolDepth) \(c.deepestSpoolDepth) \(c.sinkRetries)\n".utf8))
        try await Task.sleep(for: .milliseconds(50))
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
