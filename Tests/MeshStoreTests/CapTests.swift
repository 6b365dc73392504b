import Foundation
import MeshCodec
import Testing

@testable import MeshStore

/// Caps are enforced in the inserting transaction: at the cap nothing goes, one over and the
/// oldest goes.
@Suite struct CapTests {
    let node = Fixture.key(0x11)
    let other = Fixture.key(0x22)

    func setUp(_ limits: StoreLimits) async throws -> (TestStore, RadioID) {
        let t = try TestStore(limits: limits)
        let radio = try await t.writer.register(Fixture.radio()).id
        try await t.writer.saveContacts(radio, [Fixture.contact(node, name: "N"), Fixture.contact(other, name: "O")])
        return (t, radio)
    }

    func positions(_ key: PublicKey, _ range: Range<Int>) -> SampleBatch {
        SampleBatch(positions: range.map { PositionSample(node: key, coordinates: Coordinates(latitudeE6: Int32($0), longitudeE6: 0),
                                                          recordedAt: Fixture.t0.addingTimeInterval(Double($0))) })
    }

    @Test("the standard caps are persistence.md's")
    func standardCaps() {
        #expect(StoreLimits.standard == StoreLimits(positionsPerNode: 5_000, telemetryPerNodeAndType: 5_000, statsPerNode: 5_000,
                                                    messagesPerConversation: 50_000))
    }

    @Test("5,000 positions per node: 5,000 kept, the 5,001st pushes the oldest out")
    func positionCapAtStandardSize() async throws {
        let (t, radio) = try await setUp(.standard)
        try await t.writer.saveSamples(radio, positions(node, 0..<5_000))
        #expect(try t.reader.rowCounts(radio)["positions"] == 5_000)
        let report = try await t.writer.saveSamples(radio, positions(node, 5_000..<5_001))
        #expect(report.trimmed == 1)
        let kept = try t.reader.positions(radio, node: node, limit: 10_000)
        #expect(kept.count == 5_000 && kept.last?.coordinates.latitudeE6 == 1 && kept.first?.coordinates.latitudeE6 == 5_000)
    }

    @Test("position, telemetry and stats caps per node (and per LPP type) at their boundaries")
    func sampleCaps() async throws {
        let (t, radio) = try await setUp(StoreLimits(positionsPerNode: 4, telemetryPerNodeAndType: 3, statsPerNode: 2, messagesPerConversation: 100))
        var report = try await t.writer.saveSamples(radio, positions(node, 0..<4))
        #expect(report.trimmed == 0)
        report = try await t.writer.saveSamples(radio, positions(node, 4..<6).merged(positions(other, 0..<4)))
        #expect(report.trimmed == 2)
        #expect(try t.reader.positions(radio, node: node).map(\.coordinates.latitudeE6) == [5, 4, 3, 2])
        #expect(try t.reader.positions(radio, node: other).count == 4)

        func telemetry(_ type: LPPType, _ range: Range<Int>) -> [TelemetrySample] {
            range.map { TelemetrySample(node: node, record: LPPRecord(channel: 1, type: type, values: [Double($0)]),
                                        recordedAt: Fixture.t0.addingTimeInterval(Double($0))) }
        }
        try await t.writer.saveSamples(radio, SampleBatch(telemetry: telemetry(.temperature, 0..<3) + telemetry(.humidity, 0..<2)))
        #expect(try t.reader.telemetry(radio, node: node).count == 5)
        report = try await t.writer.saveSamples(radio, SampleBatch(telemetry: telemetry(.temperature, 3..<5)))
        #expect(report.trimmed == 2)
        #expect(try t.reader.telemetry(radio, node: node, type: .temperature).map(\.record.values[0]) == [4, 3, 2])
        #expect(try t.reader.telemetry(radio, node: node, type: .humidity).count == 2)

        let stats = (0..<3).map { StatsSample(node: node, recordedAt: Fixture.t0.addingTimeInterval(Double($0))) }
            + (0..<3).map { StatsSample(node: nil, recordedAt: Fixture.t0.addingTimeInterval(Double($0))) }
        report = try await t.writer.saveSamples(radio, SampleBatch(stats: stats))
        #expect(report.trimmed == 2)
        #expect(try t.reader.stats(radio, node: node).map(\.recordedAt) == [Fixture.t0.addingTimeInterval(2), Fixture.t0.addingTimeInterval(1)])
        #expect(try t.reader.stats(radio, node: nil).count == 2)
    }

    @Test("messages per conversation: at the cap all stay, past it the oldest go, counters follow")
    func messageCap() async throws {
        let (t, radio) = try await setUp(StoreLimits(positionsPerNode: 1, telemetryPerNodeAndType: 1, statsPerNode: 1, messagesPerConversation: 5))
        try await t.writer.saveIncoming(radio, (0..<5).map { Fixture.channel(0, "c: m\($0)", at: Double($0), ts: UInt32($0)) })
        #expect(try t.reader.channels(radio).first?.messageCount == 5)
        #expect(try t.reader.timeline(radio, .channel(0)).messages.count == 5)
        try await t.writer.saveIncoming(radio, (5..<7).map { Fixture.channel(0, "c: m\($0)", at: Double($0), ts: UInt32($0)) })
        #expect(try t.reader.timeline(radio, .channel(0)).messages.map(\.text) == ["m6", "m5", "m4", "m3", "m2"])
        let channel = try #require(try t.reader.channels(radio).first)
        #expect(channel.messageCount == 5 && channel.unreadCount == 5)
        // The trimmed rows left the search index too.
        #expect(try t.reader.search(radio, SearchQuery("m0")).isEmpty)
        // Outgoing messages count towards the cap of their thread.
        try await t.writer.saveOutgoing(radio, OutgoingMessage(conversation: .direct(node), text: "x", senderTimestamp: 1))
        try await t.writer.saveIncoming(radio, (0..<5).map { Fixture.dm(from: node, "d\($0)", at: Double(10 + $0), ts: UInt32($0)) })
        #expect(try t.reader.timeline(radio, .direct(node)).messages.map(\.text) == ["d4", "d3", "d2", "d1", "d0"])
        #expect(try t.reader.contact(radio, key: node)?.messageCount == 5)
    }
}

extension SampleBatch {
    func merged(_ other: SampleBatch) -> SampleBatch {
        SampleBatch(positions: positions + other.positions, telemetry: telemetry + other.telemetry, stats: stats + other.stats)
    }
}
