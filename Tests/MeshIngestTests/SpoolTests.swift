import Foundation
@testable import MeshIngest
import MeshportTestSupport
import Synchronization
import Testing

/// The spool (Modules/MeshIngest/Spool.swift): replay after a restart, a torn record from a kill
/// mid-write, truncation once written, and the bound that holds appenders back.
@Suite(.timeLimit(.minutes(1))) struct SpoolTests {
    static func message(_ index: Int) -> SpooledMessage {
        SpooledMessage(topic: "meshcore/AMS/KEY/packets", payload: Array("message \(index)".utf8),
                       receivedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index) / 1000))
    }

    static func open(_ dir: TempDir, bound: Int = 1000, segmentBytes: Int = 1 << 20, pause: TimeInterval = 30) throws -> Spool {
        try Spool(folder: dir.url.appendingPathComponent("spool"), bound: bound, segmentBytes: segmentBytes, pause: pause)
    }

    static func segmentFiles(_ dir: TempDir) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path("spool")).filter { $0.hasSuffix(".spool") }.sorted()
    }

    /// The path of the segment a spool left with `messages` appended and none written, as a
    /// process killed then leaves it.
    static func segmentLeftBehind(in dir: TempDir, messages: Int) throws -> String {
        let spool = try open(dir)
        for index in 0..<messages { try spool.append(message(index)) }
        guard let last = try segmentFiles(dir).last else { throw ProcessFailure("no segment in \(dir.path("spool"))") }
        return dir.path("spool/" + last)
    }

    @Test func whatWasNotMarkedWrittenIsReplayedAfterARestart() throws {
        let dir = TempDir()
        do {
            let spool = try Self.open(dir)
            for index in 0..<10 { try spool.append(Self.message(index)) }
            #expect(spool.peek(4) == (0..<4).map(Self.message))
            try spool.commit(4)
            #expect(spool.depth == 6)
            // No close: as a process killed now leaves it.
        }
        let reopened = try Self.open(dir)
        #expect(reopened.recovery == Spool.Recovery(replayed: 6, tornSegments: 0))
        #expect(reopened.peek(100) == (4..<10).map(Self.message))
        try reopened.append(Self.message(10))
        try reopened.commit(3)
        reopened.close()
        let third = try Self.open(dir)
        #expect(third.peek(100) == (7..<11).map(Self.message))
    }

    @Test func aRecordCutShortByAKillIsDroppedAndTheWholeOnesKept() throws {
        let dir = TempDir()
        // A write cut short: the start of a sixth record, its length promising more than is there.
        let segment = try Self.segmentLeftBehind(in: dir, messages: 5)
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        handle.seekToEndOfFile()
        handle.write(Data(SpoolRecord.encode(Self.message(5)).prefix(20)))
        handle.closeFile()
        let reopened = try Self.open(dir)
        #expect(reopened.recovery == Spool.Recovery(replayed: 5, tornSegments: 1))
        #expect(reopened.peek(100) == (0..<5).map(Self.message))
        // New messages go to a new segment, after the torn one.
        try reopened.append(Self.message(6))
        #expect(reopened.peek(100) == (0..<5).map(Self.message) + [Self.message(6)])
    }

    @Test func aDamagedRecordEndsItsSegment() throws {
        let dir = TempDir()
        let segment = try Self.segmentLeftBehind(in: dir, messages: 3)
        var bytes = try #require(FileManager.default.contents(atPath: segment))
        let second = SpoolRecord.encode(Self.message(0)).count + 12
        bytes[second] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: segment))
        let reopened = try Self.open(dir)
        #expect(reopened.peek(100) == [Self.message(0)] && reopened.recovery.tornSegments == 1)
    }

    @Test func writtenSegmentsAreRemoved() throws {
        let dir = TempDir()
        let record = SpoolRecord.encode(Self.message(0)).count
        let spool = try Self.open(dir, segmentBytes: record * 3)
        for index in 0..<10 { try spool.append(Self.message(index)) }
        #expect(try Self.segmentFiles(dir).count == 4, "3 records per segment")
        try spool.commit(7)
        #expect(try Self.segmentFiles(dir).count == 2, "only segments with unwritten messages stay")
        try spool.commit(3)
        #expect(try Self.segmentFiles(dir).count == 1, "the segment being written stays")
        #expect(spool.depth == 0 && spool.appendedCount == 10)
        spool.close()
        let reopened = try Self.open(dir)
        #expect(reopened.depth == 0 && reopened.recovery.replayed == 0)
    }

    @Test func appendWaitsWhileTheSpoolIsOverItsBound() async throws {
        let dir = TempDir()
        let spool = try Self.open(dir, bound: 3)
        let appended = Atomic<Int>(0)
        let done = await offPool {
            Thread {
                for index in 0..<6 {
                    do { try spool.append(Self.message(index)) } catch { return }
                    appended.add(1, ordering: .sequentiallyConsistent)
                }
            }.start()
            // The fourth append is written, then waits for room (a loaded machine may take long
            // to run the thread; the wait ends as soon as it has).
            let deadline = Date().addingTimeInterval(30)
            while spool.depth < 4, Date() < deadline { usleep(5_000) }
            usleep(200_000)
            return appended.load(ordering: .sequentiallyConsistent)
        }
        #expect(done == 3 && spool.depth == 4, "held back after the bound: \(done) returned, \(spool.depth) waiting")
        try spool.commit(4)
        let finished = await offPool {
            let deadline = Date().addingTimeInterval(30)
            while appended.load(ordering: .sequentiallyConsistent) < 6, Date() < deadline { usleep(5_000) }
            return appended.load(ordering: .sequentiallyConsistent)
        }
        #expect(finished == 6 && spool.peek(10) == (4..<6).map(Self.message) && spool.deepestDepth == 4)
        spool.close()
    }

    @Test func aWaitLastsAtMostThePauseSoPahoGetsItsLockBack() async throws {
        let dir = TempDir()
        let spool = try Self.open(dir, bound: 1, pause: 0.2)
        let started = Date()
        let seconds = try await offPool {
            for index in 0..<4 { try spool.append(Self.message(index)) }
            return Date().timeIntervalSince(started)
        }
        #expect(spool.depth == 4 && seconds >= 0.55 && seconds < 5, "one wait of 0.2 s per append over the bound: \(seconds) s")
        spool.close()
    }

    @Test func oneFolderServesOneWorkerAtATime() throws {
        let dir = TempDir()
        let first = try Self.open(dir)
        do {
            _ = try Self.open(dir)
            Issue.record("a second spool opened the same folder")
        } catch {
            #expect("\(error)".contains("another ingest worker uses it"), "\(error)")
        }
        first.close()
        let second = try Self.open(dir)
        second.close()
        withExtendedLifetime(first) {}
    }
}
