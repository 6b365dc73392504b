import Foundation

/// Why samples were written.
public enum FlushReason: String, Hashable, Sendable {
    /// No new data for the idle delay (2 s).
    case idle
    /// The oldest unsaved sample reached the ceiling (5 s), however busy the radio is.
    case ceiling
    case disconnect
    case shutdown
    /// A caller asked for it.
    case explicit
}

/// What one flush wrote.
public struct FlushReport: Hashable, Sendable, CustomStringConvertible {
    public var reason: FlushReason
    public var radios: Int = 0
    public var writes = SampleWriteReport()

    /// For the log: "wrote 12 samples of 1 radio at shutdown (3 old rows trimmed)".
    public var description: String {
        var text = "wrote \(writes.inserted) sample\(writes.inserted == 1 ? "" : "s") of \(radios) radio\(radios == 1 ? "" : "s") at \(reason.rawValue)"
        var notes: [String] = []
        if writes.trimmed > 0 { notes.append("\(writes.trimmed) old rows trimmed to the caps") }
        if writes.skippedUnknownNodes > 0 { notes.append("\(writes.skippedUnknownNodes) of nodes that are not contacts skipped") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
        return text
    }
}

public enum FlushEvent: Hashable, Sendable {
    case flushed(FlushReport)
    /// The samples stay queued and are retried after the idle delay.
    case failed(StoreError, FlushReason)
}

/// Coalesced writes for high-rate data (positions, telemetry, stats; persistence.md):
/// samples wait in memory and are written in one transaction 2 s after the last one arrived,
/// or 5 s after the first unsaved one at the latest, and always on disconnect and shutdown.
/// Messages, contacts and settings never wait here: they go straight to the writer.
///
/// The clock is injected, so tests drive the delays without sleeping.
public actor WriteCoalescer<C: Clock> where C.Duration == Duration {
    public nonisolated let idleDelay: Duration
    public nonisolated let ceiling: Duration
    /// Every flush and every failed flush (the timer's have no caller to throw to).
    public nonisolated let events: AsyncStream<FlushEvent>

    private let writer: StoreWriter
    private let clock: C
    private let eventSink: AsyncStream<FlushEvent>.Continuation
    private var pending: [RadioID: SampleBatch] = [:]
    private var firstPendingAt: C.Instant?
    private var lastAddedAt: C.Instant?
    private var timer: Task<Void, Never>?
    /// Tells a timer that outlived a shutdown from the current one.
    private var timerGeneration = 0

    public init(writer: StoreWriter, clock: C, idleDelay: Duration = .seconds(2), ceiling: Duration = .seconds(5)) {
        self.writer = writer
        self.clock = clock
        self.idleDelay = idleDelay
        self.ceiling = ceiling
        (events, eventSink) = AsyncStream.makeStream(of: FlushEvent.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Samples waiting to be written.
    public var pendingCount: Int { pending.values.reduce(0) { $0 + $1.count } }

    /// When the pending samples are due: 2 s after the last arrival, capped at 5 s after the first.
    public var deadline: C.Instant? {
        guard let first = firstPendingAt, let last = lastAddedAt else { return nil }
        return min(last.advanced(by: idleDelay), first.advanced(by: ceiling))
    }

    public func add(_ radio: RadioID, _ batch: SampleBatch) {
        guard !batch.isEmpty else { return }
        let now = clock.now
        pending[radio, default: SampleBatch()].append(batch)
        if firstPendingAt == nil { firstPendingAt = now }
        lastAddedAt = now
        if timer == nil {
            timerGeneration += 1
            let generation = timerGeneration
            timer = Task { await self.runTimer(generation) }
        }
    }

    /// Writes the pending samples if their deadline has passed; nil if it has not.
    @discardableResult
    public func flushIfDue() async throws(StoreError) -> FlushReport? {
        guard let due = deadline, let last = lastAddedAt, clock.now >= due else { return nil }
        return try await flush(clock.now >= last.advanced(by: idleDelay) ? .idle : .ceiling)
    }

    /// Writes everything pending now. On failure the samples stay queued (ahead of newer
    /// ones) and the error is thrown and reported on `events`.
    @discardableResult
    public func flush(_ reason: FlushReason) async throws(StoreError) -> FlushReport {
        var taken = pending
        pending = [:]
        firstPendingAt = nil
        lastAddedAt = nil
        var report = FlushReport(reason: reason)
        for radio in taken.keys.sorted() {
            guard let batch = taken[radio] else { continue }
            do {
                report.writes.add(try await writer.saveSamples(radio, batch))
                report.radios += 1
                taken[radio] = nil
            } catch {
                requeue(taken)
                eventSink.yield(.failed(error, reason))
                throw error
            }
        }
        eventSink.yield(.flushed(report))
        return report
    }

    /// Flushes and stops the timer; later samples start it again.
    @discardableResult
    public func shutdown() async throws(StoreError) -> FlushReport {
        timer?.cancel()
        timer = nil
        return try await flush(.shutdown)
    }

    private func requeue(_ unwritten: [RadioID: SampleBatch]) {
        for (radio, batch) in unwritten {
            var merged = batch
            if let newer = pending[radio] { merged.append(newer) }
            pending[radio] = merged
        }
        // Retry one idle delay from now rather than at once, so a failing disk is not hammered.
        let now = clock.now
        firstPendingAt = now
        lastAddedAt = now
    }

    private func runTimer(_ generation: Int) async {
        while let due = deadline, !Task.isCancelled {
            do {
                try await clock.sleep(until: due, tolerance: nil)
                try await flushIfDue()
            } catch is CancellationError {
                break  // shutdown stopped this timer
            } catch {
                // Already reported on `events` and to StoreOptions.onError; the samples are
                // queued again and retried after the idle delay.
                continue
            }
        }
        if generation == timerGeneration { timer = nil }
    }
}
