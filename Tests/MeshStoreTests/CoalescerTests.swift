import Foundation
import MeshportTestSupport
import MeshCodec
import Testing

@testable import MeshStore

/// The write coalescer with an injected clock: no test sleeps, time moves by hand.
@Suite(.timeLimit(.minutes(1))) struct CoalescerTests {
    let node = Fixture.key(0x11)

    func setUp() async throws -> (TestStore, RadioID, ManualClock, WriteCoalescer<ManualClock>) {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        try await t.writer.saveContacts(radio, [Fixture.contact(node, name: "N")])
        let clock = ManualClock()
        return (t, radio, clock, WriteCoalescer(writer: t.writer, clock: clock))
    }

    func position(_ n: Int) -> SampleBatch {
        SampleBatch(positions: [PositionSample(node: node, coordinates: Coordinates(latitudeE6: Int32(n), longitudeE6: 0),
                                               recordedAt: Fixture.t0.addingTimeInterval(Double(n)))])
    }

    func stored(_ t: TestStore, _ radio: RadioID) throws -> Int { try t.reader.rowCounts(radio)["positions"] ?? -1 }

    @Test("written 2 s after the last sample, not before")
    func idleDelay() async throws {
        let (t, radio, clock, c) = try await setUp()
        var events = c.events.makeAsyncIterator()
        await c.add(radio, position(1))
        #expect(await c.deadline == clock.now.advanced(by: .seconds(2)))
        clock.advance(by: .milliseconds(1_999))
        #expect(try await c.flushIfDue() == nil)
        #expect(try stored(t, radio) == 0)
        #expect(await c.pendingCount == 1)
        clock.advance(by: .milliseconds(1))
        guard case let .flushed(report) = await events.next() else { Issue.record("expected a flush"); return }
        #expect(report.reason == .idle && report.writes.inserted == 1)
        #expect(try stored(t, radio) == 1)
        #expect(await c.pendingCount == 0)
        #expect(await c.deadline == nil)
    }

    @Test("each new sample restarts the 2 s wait")
    func idleRestarts() async throws {
        let (t, radio, clock, c) = try await setUp()
        var events = c.events.makeAsyncIterator()
        await c.add(radio, position(1))
        clock.advance(by: .milliseconds(1_500))
        await c.add(radio, position(2))
        clock.advance(by: .milliseconds(500))  // 2 s after the first, 0.5 s after the second
        #expect(try await c.flushIfDue() == nil)
        #expect(try stored(t, radio) == 0)
        clock.advance(by: .milliseconds(1_500))
        guard case let .flushed(report) = await events.next() else { Issue.record("expected a flush"); return }
        #expect(report.reason == .idle && report.writes.inserted == 2)
    }

    @Test("a steady stream is written 5 s after its first unsaved sample at the latest")
    func ceiling() async throws {
        let (t, radio, clock, c) = try await setUp()
        var events = c.events.makeAsyncIterator()
        for n in 0..<4 {
            if n > 0 {
                clock.advance(by: .milliseconds(1_500))  // never 2 s of quiet
                #expect(try await c.flushIfDue() == nil)
            }
            await c.add(radio, position(n))
        }
        // Samples at 0, 1.5, 3 and 4.5 s: idle would make it 6.5 s, the ceiling makes it 5 s.
        #expect(await c.deadline == ManualClock.Instant(offset: .seconds(5)))
        clock.advance(by: .milliseconds(499))
        #expect(try await c.flushIfDue() == nil)
        #expect(try stored(t, radio) == 0)
        clock.advance(by: .milliseconds(1))
        guard case let .flushed(report) = await events.next() else { Issue.record("expected a flush"); return }
        #expect(report.reason == .ceiling && report.writes.inserted == 4)
        #expect(try stored(t, radio) == 4)
    }

    @Test("flushed at once on disconnect and on shutdown")
    func disconnectAndShutdown() async throws {
        let t = try TestStore()
        let radio = try await t.writer.register(Fixture.radio()).id
        try await t.writer.saveContacts(radio, [Fixture.contact(node, name: "N")])
        await t.store.record(radio, position: position(1).positions[0])
        await t.store.record(radio, telemetry: [TelemetrySample(node: node, record: LPPRecord(channel: 1, type: .voltage, values: [3.7]),
                                                                recordedAt: Fixture.t0)])
        #expect(try stored(t, radio) == 0)
        let report = try await t.store.radioDisconnected(radio)
        #expect(report.reason == .disconnect && report.writes.inserted == 2)
        #expect(try stored(t, radio) == 1 && t.reader.telemetry(radio, node: node).count == 1)

        await t.store.record(radio, stats: StatsSample(node: nil, stats: .core(CoreStats(batteryMillivolts: 4000, uptimeSeconds: 9, errorFlags: 0,
                                                                                          queueLength: 0)), recordedAt: Fixture.t0))
        #expect(try await t.store.close().reason == .shutdown)
        let reopened = try MeshStore.open(at: t.dir.path())
        #expect(try reopened.reader.stats(radio, node: nil).map(\.batteryMillivolts) == [4000])
        try await reopened.close()
    }

    @Test("messages, contacts and settings are written at once; samples wait for the coalescer")
    func immediateClass() async throws {
        let (t, radio, _, c) = try await setUp()
        await c.add(radio, position(1))
        try await t.writer.saveIncoming(radio, [Fixture.dm(from: node, "now")])
        try await t.writer.saveContacts(radio, [Fixture.contact(Fixture.key(0x22), name: "new")])
        try await t.writer.setContactsLastmod(radio, 99)
        #expect(try t.reader.timeline(radio, .direct(node)).messages.count == 1)
        #expect(try t.reader.contactCount(radio) == 2 && t.reader.radio(radio)?.contactsLastmod == 99)
        #expect(try stored(t, radio) == 0)
        #expect(await c.pendingCount == 1)
        try await c.flush(.explicit)
        #expect(try stored(t, radio) == 1)
    }

    @Test("a failed flush keeps the samples, reports the error, and retries after the idle delay")
    func failureKeepsSamples() async throws {
        let dir = TempDir()
        let writable = try MeshStore.open(at: dir.path())
        let radio = try await writable.writer.register(Fixture.radio()).id
        try await writable.writer.saveContacts(radio, [Fixture.contact(node, name: "N")])
        try await writable.close()
        let readOnly = try MeshStore.open(at: dir.path(), options: StoreOptions(mode: .readOnly))
        let clock = ManualClock()
        let c = WriteCoalescer(writer: readOnly.writer, clock: clock)
        var events = c.events.makeAsyncIterator()
        await c.add(radio, position(1))
        clock.advance(by: .seconds(2))
        guard case let .failed(error, reason) = await events.next() else { Issue.record("expected a failure"); return }
        #expect(reason == .idle)
        #expect(error == .readOnly(what: "1 sample(s) of radio \(radio)"))
        #expect(await c.pendingCount == 1)
        #expect(await c.deadline == clock.now.advanced(by: .seconds(2)))
        await #expect(throws: StoreError.self) { try await c.shutdown() }
        #expect(await c.pendingCount == 1)
    }

    @Test("samples of nodes that are not contacts are counted, not written")
    func unknownNodes() async throws {
        let (t, radio, _, c) = try await setUp()
        await c.add(radio, SampleBatch(positions: [PositionSample(node: Fixture.key(0x99), coordinates: .zero, recordedAt: Fixture.t0)]))
        let report = try await c.flush(.explicit)
        #expect(report.writes.skippedUnknownNodes == 1 && report.writes.inserted == 0)
        #expect(try stored(t, radio) == 0)
    }
}
