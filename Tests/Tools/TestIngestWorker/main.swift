// An ingest worker whose sink appends one line per hearing (its raw packet in hex) to a file
// and syncs it, for the test that kills the worker with SIGKILL mid-stream and starts it again
// (MeshIngestTests). Prints "subscribed" once both shared subscriptions are granted.
// Usage: MeshportTestIngestWorker BROKER_URL GROUP CLIENT_ID SPOOL_FOLDER SINK_FILE
import Foundation
import Glibc
import MeshIngest
import MeshMQTT
import MeshRegion

struct LineFileSink: RegionSink {
    let path: String

    func write(_ batch: RegionBatch) async throws {
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
guard arguments.count == 6 else {
    FileHandle.standardError.write(Data("usage: MeshportTestIngestWorker BROKER_URL GROUP CLIENT_ID SPOOL_FOLDER SINK_FILE\n".utf8))
    exit(2)
}
do {
    let settings = IngestSettings(brokers: [try MQTTBrokerURL(parsing: arguments[1])], group: arguments[2], clientID: arguments[3],
                                  spoolFolder: URL(fileURLWithPath: arguments[4]), batchSize: 50, batchInterval: .milliseconds(20),
                                  spoolBound: 200)
    let worker = IngestWorker(settings: settings, sink: LineFileSink(path: arguments[5])) {
        FileHandle.standardError.write(Data(($0 + "\n").utf8))
    }
    try await worker.start()
    while await !worker.isSubscribed { try await Task.sleep(for: .milliseconds(20)) }
    FileHandle.standardOutput.write(Data("subscribed\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
