import Foundation
import MeshportTestSupport
import PostgresNIO
import Testing

@testable import MeshRegion

/// Each node's best observer, kept on its row (migration v3-node-best-observer): the link with
/// the highest best SNR, then the lowest observer key, as `region_best_link` ranks them.
@Suite(.timeLimit(.minutes(2))) struct RegionBestObserverTests {
    /// Node 7's advert sent at `at`, heard directly by `observer` at `snr`.
    static func advert(heardBy observer: UInt8, snr: Double?, at: Date) -> Hearing {
        let packet = Sample.advertPacket(node: 7, name: "Hilltop", latitude: 52.1, longitude: 4.9, advertisedAt: at)
        return Hearing(observerKey: Sample.key(observer), region: "AMS", heardAt: at, direction: .rx, raw: packet.raw, snr: snr, rssi: -90,
                       decoded: packet.decoded)
    }

    static func best(_ db: RegionDatabase) async throws -> RegionNode.Best? {
        let history = try RegionHistory(url: db.server.url(database: db.name))
        let node = try #require(try await history.nodes(before: nil, limit: 1).items.first)
        return node.best
    }

    /// A key as an SQL literal.
    static func bytea(_ key: [UInt8]) -> String { "'\\x" + key.map { String(format: "%02x", $0) }.joined() + "'::bytea" }

    /// The observer of the best link as the links themselves rank it, to compare the kept one with.
    static func rankedFirst(_ db: RegionDatabase) async throws -> [UInt8]? {
        try await db.column("SELECT observer_key FROM region_best_link(\(bytea(Sample.key(7))))", as: ByteBuffer.self).first.map { Array($0.readableBytesView) }
    }

    @Test("the best observer follows a better hearing arriving later, stays when a worse one arrives, and a redelivered batch changes nothing")
    func followsBetterHearings() async throws {
        let db = try await RegionDatabase.make()
        let start = Sample.time()
        let first = RegionBatch(observers: [1, 2, 3].map { Sample.observer($0, at: start) }, hearings: [Self.advert(heardBy: 2, snr: 3, at: start)])
        try await db.store.write(first)
        #expect(try await Self.best(db) == RegionNode.Best(observer: Sample.key(2), observerName: "gateway-2", snr: 3, lastHeard: start))

        let better = RegionBatch(hearings: [Self.advert(heardBy: 1, snr: 8, at: start.addingTimeInterval(60))])
        try await db.store.write(better)
        let afterBetter = RegionNode.Best(observer: Sample.key(1), observerName: "gateway-1", snr: 8, lastHeard: start.addingTimeInterval(60))
        #expect(try await Self.best(db) == afterBetter)

        try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 3, snr: -2, at: start.addingTimeInterval(120)),
                                                        Self.advert(heardBy: 2, snr: nil, at: start.addingTimeInterval(130))]))
        #expect(try await Self.best(db) == afterBetter, "worse hearings leave the best where it was")

        // The best observer heard the node again, worse: still the best (its best SNR stays), heard later.
        try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 1, snr: 1, at: start.addingTimeInterval(180))]))
        let heardAgain = RegionNode.Best(observer: Sample.key(1), observerName: "gateway-1", snr: 8, lastHeard: start.addingTimeInterval(180))
        #expect(try await Self.best(db) == heardAgain)

        let before = try await db.snapshot()
        try await db.store.write(better)
        try await db.store.write(first)
        #expect(try await db.snapshot() == before, "a redelivered batch changes nothing")
        #expect(try await Self.best(db) == heardAgain)
        #expect(try await Self.rankedFirst(db) == Sample.key(1))
    }

    @Test("of two observers hearing at the same SNR the lower key is best, whichever came first")
    func tiesGoToTheLowerKey() async throws {
        let db = try await RegionDatabase.make()
        let start = Sample.time()
        try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 5, snr: 4, at: start)]))
        try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 4, snr: 4, at: start.addingTimeInterval(60))]))
        try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 6, snr: 4, at: start.addingTimeInterval(120))]))
        #expect(try await Self.best(db)?.observer == Sample.key(4))
    }

    @Test("a worker whose statement did not see another worker's better link, committed meanwhile, leaves that link the best")
    func racingWorkersKeepTheBetter() async throws {
        let db = try await RegionDatabase.make()
        let start = Sample.time()
        try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 3, snr: -10, at: start)]))
        try await db.withConnection { first in
            // Worker one writes observer 1's better hearing and holds its transaction open: its
            // link is not committed, and the node's row is locked.
            try await first.query("BEGIN", logger: quiet)
            try await RegionWrites.write(try RegionRows(RegionBatch(hearings: [Self.advert(heardBy: 1, snr: 9, at: start.addingTimeInterval(60))])),
                                         on: first, logger: quiet)
            // Worker two (an hour later: no shared hour row) finds observer 2 the best it can see,
            // then waits for the node's row.
            let second = Task { try await db.store.write(RegionBatch(hearings: [Self.advert(heardBy: 2, snr: 4, at: start.addingTimeInterval(3600))])) }
            var waiting = 0
            for _ in 0..<100 where waiting == 0 {
                try await Task.sleep(for: .milliseconds(50))
                waiting = try await db.count("pg_stat_activity", where: "wait_event_type = 'Lock' AND query LIKE 'INSERT INTO nodes%'")
            }
            #expect(waiting == 1, "worker two waits for the node's row")
            try await first.query("COMMIT", logger: quiet)
            try await second.value
        }
        #expect(try await Self.best(db) == RegionNode.Best(observer: Sample.key(1), observerName: nil, snr: 9, lastHeard: start.addingTimeInterval(60)))
        #expect(try await Self.rankedFirst(db) == Sample.key(1))
    }

    @Test("retention trims the best link: the next best takes its place, and none when no link is left")
    func retentionElectsTheNext() async throws {
        let db = try await RegionDatabase.make()
        let old = Sample.time(daysAgo: 10), recent = Sample.time(daysAgo: 1)
        try await db.store.write(RegionBatch(observers: [1, 2].map { Sample.observer($0, at: recent) },
                                             hearings: [Self.advert(heardBy: 1, snr: 9, at: old), Self.advert(heardBy: 2, snr: 2, at: recent)]))
        #expect(try await Self.best(db)?.observer == Sample.key(1))
        try await db.store.applyRetention(keepingDays: 3)
        #expect(try await Self.best(db) == RegionNode.Best(observer: Sample.key(2), observerName: "gateway-2", snr: 2, lastHeard: recent))

        // Heard since only through a repeater: the node stays, its one link goes.
        _ = try await db.withConnection { try await $0.query("UPDATE observer_links SET last_heard = last_heard - interval '5 days'", logger: quiet) }
        _ = try await db.withConnection { try await $0.query("UPDATE nodes SET best_heard = best_heard - interval '5 days'", logger: quiet) }
        try await db.store.applyRetention(keepingDays: 3)
        #expect(try await db.count("nodes") == 1)
        #expect(try await Self.best(db) == nil)
    }

    @Test("the migration fills in the best observer of the nodes heard before it")
    func migrationFillsIn() async throws {
        let db = try await RegionDatabase.make(migrated: false)
        try await db.store.migrate(upTo: "v2-links-and-hours")
        _ = try await db.withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: """
                INSERT INTO nodes (key, kind, first_seen, last_seen, last_advert) VALUES (\(Self.bytea(Sample.key(7))), 'repeater', now(), now(), now())
                """), logger: quiet)
            for (observer, snr) in [(1, "2.5"), (2, "6"), (3, "NULL")] {
                try await connection.query(PostgresQuery(unsafeSQL: """
                    INSERT INTO observer_links VALUES (\(Self.bytea(Sample.key(UInt8(observer)))), \(Self.bytea(Sample.key(7))), 1, \(snr), \(snr),
                                                       '2026-01-0\(observer) 12:00Z', '2026-01-0\(observer) 12:00Z')
                    """), logger: quiet)
            }
        }
        try await db.store.migrate()
        let best = try #require(try await Self.best(db))
        #expect(best.observer == Sample.key(2) && best.snr == 6 && best.lastHeard == Date(timeIntervalSince1970: 1_767_355_200), "\(best)")
    }
}
