import Foundation
import MeshportTestSupport
import Testing

@testable import MeshRegion

/// Observations go to one partition per UTC day, made on demand; retention drops whole old
/// partitions and deletes the other tables' old rows.
@Suite struct RegionPartitionTests {
    static func partitions(_ db: RegionDatabase) async throws -> [String] {
        try await db.column("""
            SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'observations'::regclass ORDER BY 1
            """, as: String.self)
    }

    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd"
        return "observations_" + formatter.string(from: date)
    }

    @Test("hearings on two days make two partitions, each holding its day's observations")
    func twoDays() async throws {
        let db = try await RegionDatabase.make()
        let today = Sample.time(), yesterday = Sample.time(daysAgo: 1)
        let packet = Sample.textPacket("two days", sender: "Bob", sentAt: yesterday)
        try await db.store.write(RegionBatch(hearings: Sample.hearings(packet, by: [1], at: yesterday) + Sample.hearings(packet, by: [2], at: today)))
        #expect(try await Self.partitions(db) == [Self.day(yesterday), Self.day(today)])
        #expect(try await db.count(Self.day(yesterday)) == 1)
        #expect(try await db.count(Self.day(today)) == 1)
    }

    @Test("retention drops the partitions and rows older than its days and keeps the rest")
    func retention() async throws {
        let db = try await RegionDatabase.make()
        let old = Sample.time(daysAgo: 10), recent = Sample.time(daysAgo: 1)
        let oldAdvert = Sample.advertPacket(node: 0xC3, name: "Gone", latitude: nil, longitude: nil, advertisedAt: old)
        let newText = Sample.textPacket("still here", sender: "Carol", sentAt: recent)
        try await db.store.write(RegionBatch(observers: [Sample.observer(1, at: old), Sample.observer(2, at: recent)],
                                             hearings: Sample.hearings(oldAdvert, by: [1], at: old) + Sample.hearings(newText, by: [2], at: recent)))
        let report = try await db.store.applyRetention(keepingDays: 3)
        #expect(report.droppedPartitions == [Self.day(old)])
        #expect(try await Self.partitions(db) == [Self.day(recent)])
        #expect(report.deletedRows["nodes"] == 1 && report.deletedRows["packets"] == 1 && report.deletedRows["observers"] == 1)
        #expect(try await db.count("observations") == 1)
        #expect(try await db.count("nodes") == 0)
        #expect(try await db.count("channel_messages") == 1)
        #expect(try await db.count("logical_packets") == 1)
        // The store forgets the dropped day: a late hearing of it makes the partition again.
        try await db.store.write(RegionBatch(hearings: Sample.hearings(oldAdvert, by: [3], at: old)))
        #expect(try await Self.partitions(db) == [Self.day(old), Self.day(recent)])
        await #expect(throws: RegionStoreError.retentionFailed(reason: "the retention must keep at least 1 day (given 0)")) {
            try await db.store.applyRetention(keepingDays: 0)
        }
    }
}
