import Foundation
import MeshportTestSupport
import Testing

@testable import MeshRegion

/// The store against a real PostgreSQL 15 of the test's own: what one batch writes, and that
/// writing it again, or a batch overlapping it, changes nothing.
@Suite struct RegionWriteTests {
    /// Three gateways report and hear one advert and one channel text.
    static func gatewayBatch(at start: Date) -> RegionBatch {
        let advert = Sample.advertPacket(node: 0xA1, name: "Hilltop", latitude: 52.37, longitude: 4.89, advertisedAt: start.addingTimeInterval(-5))
        let text = Sample.textPacket("hello mesh", sender: "Alice", sentAt: start.addingTimeInterval(-2))
        return RegionBatch(observers: [1, 2, 3].map { Sample.observer($0, at: start) },
                           hearings: Sample.hearings(advert, by: [1, 2, 3], at: start) + Sample.hearings(text, by: [1, 2], at: start.addingTimeInterval(10)))
    }

    @Test("one packet heard by three observers is one packet, one logical packet and three observations; adverts and texts land")
    func batchRows() async throws {
        let db = try await RegionDatabase.make()
        let start = Sample.time()
        try await db.store.write(Self.gatewayBatch(at: start))

        #expect(try await db.count("observers") == 3)
        #expect(try await db.count("packets") == 2)
        #expect(try await db.count("logical_packets") == 2)
        #expect(try await db.count("observations") == 5)
        let advertHash = Sample.advertPacket(node: 0xA1, name: "Hilltop", latitude: nil, longitude: nil,
                                             advertisedAt: start.addingTimeInterval(-5)).decoded.packetHash
        #expect(try await db.column("SELECT observation_count::bigint FROM logical_packets WHERE hash = '\(advertHash)'", as: Int.self) == [3])
        #expect(try await db.count("observations", where: "logical_hash = '\(advertHash)' AND source_key = decode(repeat('a1', 32), 'hex')") == 3)
        #expect(try await db.column("SELECT name || ' ' || kind || ' ' || latitude || ' ' || longitude FROM nodes", as: String.self)
                == ["Hilltop repeater 52.37 4.89"])
        #expect(try await db.count("node_adverts") == 1)
        #expect(try await db.column("SELECT channel_name || ' ' || sender || ': ' || text FROM channel_messages", as: String.self)
                == ["Public Alice: hello mesh"])
        #expect(try await db.column("SELECT string_agg(snr::text || '/' || rssi::text, ' ' ORDER BY snr DESC) FROM observations WHERE logical_hash = '\(advertHash)'",
                                    as: String.self) == ["7.5/-90 6.5/-91 5.5/-92"])
        #expect(try await db.column("SELECT name || ' ' || model || ' ' || (last_stats->>'battery_mv') FROM observers ORDER BY key", as: String.self)
                == ["gateway-1 Heltec V3 4100", "gateway-2 Heltec V3 4100", "gateway-3 Heltec V3 4100"])
    }

    @Test("the same batch written twice changes nothing")
    func sameBatchTwice() async throws {
        let db = try await RegionDatabase.make()
        let batch = Self.gatewayBatch(at: Sample.time())
        try await db.store.write(batch)
        let once = try await db.snapshot()
        try await db.store.write(batch)
        #expect(try await db.snapshot() == once)
        #expect(try await db.count("observations") == 5)
    }

    @Test("overlapping batches store what their union stores, each hearing once")
    func overlappingBatches() async throws {
        let server = try await PostgresProcess()
        let split = try await RegionDatabase.make(on: server)
        let whole = try await RegionDatabase.make(on: server)
        let batch = Self.gatewayBatch(at: Sample.time())
        let first = RegionBatch(observers: Array(batch.observers.prefix(2)), hearings: Array(batch.hearings.prefix(3)))
        let second = RegionBatch(observers: Array(batch.observers.suffix(2)), hearings: Array(batch.hearings.suffix(4)))
        // Written newest part first, as a redelivery after a newer batch would be.
        try await split.store.write(second)
        try await split.store.write(first)
        try await whole.store.write(batch)
        #expect(try await split.snapshot() == whole.snapshot())
        let advertHash = batch.hearings[0].decoded?.packetHash ?? ""
        #expect(try await split.column("SELECT observation_count::bigint FROM logical_packets WHERE hash = '\(advertHash)'", as: Int.self) == [3])
    }

    @Test("a newer advert moves the node; an older one arriving later does not")
    func nodeFollowsNewestAdvert() async throws {
        let db = try await RegionDatabase.make()
        let now = Sample.time()
        let old = Sample.advertPacket(node: 0xB2, name: "Old name", latitude: 50.0, longitude: 5.0, advertisedAt: now.addingTimeInterval(-3600))
        let new = Sample.advertPacket(node: 0xB2, name: "New name", latitude: 51.0, longitude: 6.0, advertisedAt: now)
        let unplaced = Sample.advertPacket(node: 0xB2, name: "New name", latitude: nil, longitude: nil, advertisedAt: now.addingTimeInterval(60))
        try await db.store.write(RegionBatch(hearings: Sample.hearings(new, by: [1], at: now)))
        try await db.store.write(RegionBatch(hearings: Sample.hearings(old, by: [2], at: now.addingTimeInterval(5))))
        try await db.store.write(RegionBatch(hearings: Sample.hearings(unplaced, by: [1], at: now.addingTimeInterval(60))))
        #expect(try await db.column("SELECT name || ' ' || latitude || ' ' || longitude FROM nodes", as: String.self) == ["New name 51 6"])
        #expect(try await db.count("node_adverts") == 3)
    }

    @Test("a rejected message is kept once and counted under its reason")
    func rejectedMessages() async throws {
        let db = try await RegionDatabase.make()
        let now = Sample.time()
        let bad = RejectedMessage(topic: "meshcore/AMS/00/packets", reason: "field `raw` is not hex", payload: Array(#"{"raw":"zz"}"#.utf8), receivedAt: now)
        let other = RejectedMessage(topic: "meshcore/AMS/00/packets", reason: "field `raw` is not hex", payload: Array(#"{"raw":"yy"}"#.utf8), receivedAt: now)
        try await db.store.write(RegionBatch(rejected: [bad, other, bad]))
        try await db.store.write(RegionBatch(rejected: [bad]))
        #expect(try await db.column("SELECT reason || ' ' || messages FROM rejected_reasons", as: String.self) == ["field `raw` is not hex 2"])
    }
}
