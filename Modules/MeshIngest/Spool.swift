import Foundation
import Glibc
import Logging

/// A worker's local spool (Docs/ingest.md, "Nothing lost"): every message from the broker is
/// appended here before the MQTT callback returns, since Paho has already acknowledged it by
/// then; the batcher writes them to the region store and marks them done, and a restart
/// writes whatever was not marked first. A kill -9 loses nothing appended; `sync` (once per
/// batch) narrows what a power cut can lose to the last batch's worth.
///
/// `append` blocks while more than `bound` messages wait: that is the back-pressure. It runs
/// on Paho's receive thread, so nothing more is read from the broker meanwhile and the broker
/// keeps the backlog. Paho holds its one library-wide lock while it calls back, so a wait lasts
/// at most `pause` at a time: between two waits Paho's other threads and calls get the lock
/// (keep-alive pings go out, a client's subscribe completes), and one more message comes in.
/// A class with a condition variable rather than an actor: the callback must wait
/// synchronously, outside Swift's cooperative pool.
public final class Spool: @unchecked Sendable {
    /// What a start found: messages not yet written, and segments that ended in a torn record.
    public struct Recovery: Sendable, Equatable {
        public var replayed: Int
        public var tornSegments: Int
    }

    public let folder: URL
    /// The most messages waiting before `append` blocks.
    public let bound: Int
    public let recovery: Recovery
    /// One element per append, newest only: wakes the batcher.
    public let arrivals: AsyncStream<Void>

    private typealias Position = SpoolFiles.Position
    private struct Entry {
        let message: SpooledMessage
        let end: Position
    }

    private let segmentBytes: Int
    private let pause: TimeInterval
    /// Held (flock) until `close`: one worker per folder.
    private var lock: Int32
    private let logger: Logger
    private let arrivalSignal: AsyncStream<Void>.Continuation
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var entries: [Entry] = []
    private var head = 0
    private var segment: UInt64
    private var fd: Int32
    private var segmentSize = 0
    private var holding = true
    private var closed = false
    private var appended = 0
    private var deepest = 0
    private var failing = false

    /// Opens the spool in `folder` (made when missing): reads what a previous process left
    /// unwritten and starts a new segment for this one.
    public init(folder: URL, bound: Int, segmentBytes: Int = 8 << 20, pause: TimeInterval = 1,
                logger: Logger = Logger(label: "meshport.ingest")) throws(SpoolError) {
        self.folder = folder
        self.bound = max(1, bound)
        self.segmentBytes = max(1, segmentBytes)
        self.pause = pause
        self.logger = logger
        (arrivals, arrivalSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: folder.path, detail: error.localizedDescription)
        }
        lock = try SpoolFiles.lockFolder(folder)
        do {
            let found = try Self.unwritten(in: folder)
            recovery = Recovery(replayed: found.entries.count, tornSegments: found.torn)
            entries = found.entries
            deepest = found.entries.count
            segment = found.last + 1
            fd = try SpoolFiles.create(segment, in: folder)
        } catch {
            SpoolFiles.unlockFolder(lock)
            throw error
        }
    }

    /// What the segments hold past the `done` mark (segments wholly before it are removed), how
    /// many ended in a torn record, and the highest segment number in use.
    private static func unwritten(in folder: URL) throws(SpoolError) -> (entries: [Entry], torn: Int, last: UInt64) {
        let marker = SpoolFiles.readMarker(in: folder)
        var torn = 0
        var found: [Entry] = []
        var last = marker?.segment ?? 0
        for number in try SpoolFiles.segments(in: folder) {
            last = max(last, number)
            if let marker, number < marker.segment {
                try SpoolFiles.remove(number, in: folder)
                continue
            }
            let data = try SpoolFiles.readSegment(number, in: folder)
            var offset = marker.map { number == $0.segment ? $0.offset : 0 } ?? 0
            reading: while true {
                switch SpoolRecord.read(data, at: offset) {
                case .record(let message, let size):
                    offset += size
                    found.append(Entry(message: message, end: Position(segment: number, offset: offset)))
                case .end(let wasTorn):
                    if wasTorn { torn += 1 }
                    break reading
                }
            }
        }
        return (found, torn, last)
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
        if lock >= 0 { SpoolFiles.unlockFolder(lock) }
        arrivalSignal.finish()
    }

    /// Appends `message`, then waits while more than `bound` messages wait to be written, at
    /// most `pause` (until `release` or `close`). A write that fails (disk full) is retried
    /// every `pause`, holding the broker back meanwhile; throws only when the spool is closed
    /// before it succeeds.
    public func append(_ message: SpooledMessage) throws(SpoolError) {
        let record = SpoolRecord.encode(message)
        condition.lock()
        defer { condition.unlock() }
        while true {
            guard !closed else { throw .closed }
            do {
                try write(record)
                break
            } catch {
                if !failing { logger.warning("\(error) Messages are held back at the broker until it can be written.") }
                failing = true
                _ = condition.wait(until: Date().addingTimeInterval(pause))
            }
        }
        if failing {
            failing = false
            logger.notice("The ingest spool in \(folder.path) can be written again.")
        }
        entries.append(Entry(message: message, end: Position(segment: segment, offset: segmentSize)))
        appended += 1
        deepest = max(deepest, entries.count - head)
        arrivalSignal.yield()
        let until = Date().addingTimeInterval(pause)
        while holding, !closed, entries.count - head > bound, condition.wait(until: until) {}
    }

    /// Up to `count` of the oldest messages not yet marked written, oldest first.
    public func peek(_ count: Int) -> [SpooledMessage] {
        condition.withLock { entries[head..<min(entries.count, head + max(0, count))].map(\.message) }
    }

    /// Marks the `count` oldest messages written: records the position, removes segments that
    /// hold nothing unwritten, and wakes appenders waiting for room.
    public func commit(_ count: Int) throws(SpoolError) {
        condition.lock()
        defer { condition.unlock() }
        let count = min(count, entries.count - head)
        guard count > 0 else { return }
        let last = entries[head + count - 1].end
        head += count
        if head > 4096, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        try SpoolFiles.writeMarker(last, in: folder)
        let oldestNeeded = head < entries.count ? entries[head].end.segment : segment
        for number in try SpoolFiles.segments(in: folder) where number < oldestNeeded {
            try SpoolFiles.remove(number, in: folder)
        }
    }

    /// Flushes what was appended to the disk (power-cut safety), once per batch.
    public func sync() throws(SpoolError) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, fd >= 0 else { return }
        guard fdatasync(fd) == 0 else { throw .write(path: path(segment), detail: SpoolFiles.errnoText()) }
    }

    /// Messages appended and not yet marked written.
    public var depth: Int { condition.withLock { entries.count - head } }
    /// Messages appended by this process.
    public var appendedCount: Int { condition.withLock { appended } }
    /// The most messages that waited at once (replayed ones included).
    public var deepestDepth: Int { condition.withLock { deepest } }

    /// Stops holding appenders back (the worker is stopping: the MQTT clients close next, and
    /// messages still arriving meanwhile are appended without waiting).
    public func release() {
        condition.withLock {
            holding = false
            condition.broadcast()
        }
    }

    /// Closes the segment; unwritten messages wait for the next start.
    public func close() {
        condition.withLock {
            guard !closed else { return }
            closed = true
            if fd >= 0 {
                // Best effort: the batches already synced what they wrote.
                fdatasync(fd)
                Glibc.close(fd)
                fd = -1
            }
            SpoolFiles.unlockFolder(lock)
            lock = -1
            condition.broadcast()
        }
        arrivalSignal.finish()
    }

    private func write(_ record: [UInt8]) throws(SpoolError) {
        if segmentSize > 0, segmentSize + record.count > segmentBytes {
            // The full segment goes to disk (best effort, as `sync` does once per batch) before
            // the next one starts.
            fdatasync(fd)
            Glibc.close(fd)
            fd = -1
            segment += 1
            segmentSize = 0
        }
        if fd < 0 { fd = try SpoolFiles.create(segment, in: folder) }
        try SpoolFiles.append(record, to: fd, path: path(segment))
        segmentSize += record.count
    }

    private func path(_ number: UInt64) -> String { folder.appendingPathComponent(SpoolFiles.name(number)).path }
}
