import Foundation
import MeshportTestSupport
import MeshCodec
import Testing

@testable import MeshStore

/// Reliability: a child process (MeshportTestIngest, Tests/Tools/TestIngest) ingests as fast
/// as it can and is killed with SIGKILL after a random few milliseconds, 20 rounds on one
/// file. After each kill the file passes integrity_check and holds every message the child
/// had acknowledged (printed after its commit returned). Tools/Store/kill-rounds.sh runs 100
/// rounds.
@Suite struct KillTests {
    /// Its time is 20 launches of a debug executable (each round waits for the child's first
    /// commit): 2 s alone, 17 s beside the CLI and server suites and two busy loops (the first
    /// rounds' launches 1.3-1.8 s each), 77 s once in the whole suite's start beside two busy
    /// loops. Hence 3 minutes, not 1.
    @Test(.timeLimit(.minutes(3))) func sigkillDuringIngest() async throws {
        let binary = try builtExecutable("MeshportTestIngest")
        let dir = TempDir()
        let radio = RadioID(publicKey: PublicKey(Array(repeating: 0x6B, count: 32))!)
        var all: [(id: Int64, seq: Int)] = []
        for round in 0..<20 {
            let child = Process()
            child.executableURL = binary
            child.arguments = ["--db", dir.path(), "--start", "\(round * 1_000_000)"]
            child.environment = meshportEnvironment(in: dir)
            let out = Pipe()
            child.standardOutput = out
            child.standardError = FileHandle.nullDevice
            try child.run()
            let reader = PipeReader(out.fileHandleForReading)
            // The waits off the cooperative pool, which other tests' tasks need (`offPool`).
            let started = await reader.firstLine(within: 30)
            // Mid-ingest: a random few milliseconds after the first acknowledged commit.
            let pid = child.processIdentifier
            await offPool {
                usleep(UInt32.random(in: 1_000...25_000))
                kill(pid, SIGKILL)
            }
            await waitForExit(child)
            try #require(started, "round \(round): the child acknowledged nothing")
            #expect(child.terminationReason == .uncaughtSignal, "round \(round): the child ended before the kill")
            let acks = IngestAcks.parse(try await reader.fullText())
            #expect(!acks.isEmpty, "round \(round)")
            all += acks

            let store = try MeshStore.open(at: dir.path())
            let report = try store.integrityCheck()
            #expect(report.isOK, "round \(round): \(report.integrity) \(report.foreignKeyViolations)")
            let missing = try IngestAcks.missing(acks, in: store, radio: radio)
            #expect(missing.isEmpty, "round \(round): \(missing.count) acknowledged messages lost, first \(missing.first.map { "\($0)" } ?? "")")
            try await store.close()
        }
        let store = try MeshStore.open(at: dir.path())
        #expect(try IngestAcks.missing(all, in: store, radio: radio).isEmpty)
        try await store.close()
        #expect(all.count > 20)
    }
}
