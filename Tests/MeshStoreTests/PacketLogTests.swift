import Foundation
import MeshCodec
import Testing

@testable import MeshStore

/// The packet log (heard_packets): written in sample batches, capped per radio (oldest out),
/// read in newest-first cursor pages over the whole log, one payload type or one node.
@Suite struct PacketLogTests {
    let node = Fixture.key(0x11)

    /// A heard packet `seconds` after t0: an advert of `node` on even seconds, an ACK on odd ones.
    func heard(_ seconds: Int) throws -> HeardPacket {
        if seconds % 2 == 0 {
            let advert = AdvertPacket(publicKey: node, timestamp: UInt32(seconds), signature: [UInt8](repeating: 5, count: 64), appData: [0x81] + Array("N".utf8))
            return try HeardPacket(heardAt: Fixture.t0.addingTimeInterval(Double(seconds)), snrX4: 25, rssi: -80, raw: advert.encode(), node: node)
        }
        let raw = try AirPacket(route: .direct, payloadType: .ack, path: Path(hops: [[0xAB]])!, payload: [UInt8(seconds & 0xFF), 2, 3, 4]).encode()
        return try HeardPacket(heardAt: Fixture.t0.addingTimeInterval(Double(seconds)), snrX4: -6, rssi: -101, raw: raw)
    }

    func setUp(cap: Int = 200_000) async throws -> (TestStore, RadioID) {
        let t = try TestStore(limits: StoreLimits(positionsPerNode: 10, telemetryPerNodeAndType: 10, statsPerNode: 10, messagesPerConversation: 10,
                                                  packetsPerRadio: cap))
        return (t, try await t.writer.register(Fixture.radio()).id)
    }

    @Test("a packet reads back as written: bytes, signal, time, node, channel")
    func roundTrip() async throws {
        let (t, radio) = try await setUp()
        var group = try HeardPacket(heardAt: Fixture.t0, snrX4: -3, rssi: -99, raw: [0x15, 0x01, 0x42, 0x11, 0x22, 0x33], channel: 2)
        let report = try await t.writer.saveSamples(radio, SampleBatch(packets: [try heard(0), group]))
        #expect(report.inserted == 2 && report.trimmed == 0)
        let page = try t.reader.packets(radio)
        #expect(page.packets.count == 2 && page.older == nil)
        let stored = try #require(page.packets.first { $0.packet.payloadType == .groupText })
        group.id = stored.id
        #expect(stored == group && stored.id != nil && stored.snr == -0.75)
        #expect(page.packets.contains { $0.node == node && $0.packet.payloadType == .advert })
        #expect(try t.reader.rowCounts(radio)["heard_packets"] == 2)
    }

    @Test("pages run newest first by cursor, without gaps or repeats; filters by type and by node")
    func pagingAndFilters() async throws {
        let (t, radio) = try await setUp()
        try await t.writer.saveSamples(radio, SampleBatch(packets: try (0..<25).map(heard)))
        var seen: [Date] = []
        var before: TimelineCursor?
        repeat {
            let page = try t.reader.packets(radio, before: before, limit: 10)
            seen += page.packets.map(\.heardAt)
            before = page.older
        } while before != nil
        #expect(seen == (0..<25).reversed().map { Fixture.t0.addingTimeInterval(Double($0)) })

        let acks = try t.reader.packets(radio, PacketFilter(payloadType: .ack), limit: 100).packets
        #expect(acks.count == 12 && acks.allSatisfy { $0.packet.payloadType == .ack })
        let fromNode = try t.reader.packets(radio, PacketFilter(node: node), limit: 5)
        #expect(fromNode.packets.count == 5 && fromNode.packets.allSatisfy { $0.node == node } && fromNode.older != nil)
        #expect(try t.reader.packets(radio, PacketFilter(payloadType: .trace)).packets.isEmpty)
        #expect(throws: StoreError.self) { try t.reader.packets(radio, limit: 0) }
    }

    @Test("the cap keeps the newest packets of the radio; the oldest go in the same transaction")
    func cap() async throws {
        let (t, radio) = try await setUp(cap: 10)
        var report = try await t.writer.saveSamples(radio, SampleBatch(packets: try (0..<10).map(heard)))
        #expect(report.trimmed == 0)
        report = try await t.writer.saveSamples(radio, SampleBatch(packets: try (10..<13).map(heard)))
        #expect(report.inserted == 3 && report.trimmed == 3)
        let kept = try t.reader.packets(radio, limit: 100).packets.map(\.heardAt)
        #expect(kept == (3..<13).reversed().map { Fixture.t0.addingTimeInterval(Double($0)) })
    }

    @Test("packets wait in the coalescer like other samples and are written at the flush")
    func coalesced() async throws {
        let (t, radio) = try await setUp()
        await t.store.record(radio, SampleBatch(packets: [try heard(1)]))
        #expect(try t.reader.packets(radio).packets.isEmpty)
        let flushed = try await t.store.coalescer.flush(.explicit)
        #expect(try flushed.writes.inserted == 1 && t.reader.packets(radio).packets.count == 1)
    }

    @Test("a stored row whose bytes are no packet is reported, not skipped")
    func corruptRow() async throws {
        let (t, radio) = try await setUp()
        try await t.writer.saveSamples(radio, SampleBatch(packets: [try heard(1)]))
        try await t.store.database.writer.write { db in try db.execute(sql: "UPDATE heard_packets SET raw = x'11'") }
        #expect(throws: StoreError.self) { try t.reader.packets(radio) }
    }
}
