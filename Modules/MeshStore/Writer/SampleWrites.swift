import Foundation
import GRDB
import MeshCodec

/// Positions, telemetry, stats and heard packets: high-rate rows written by the coalescer in one
/// transaction per flush, each table's caps enforced before it commits.
enum SampleWrites {
    static func apply(_ db: Database, radio: RadioID, batch: SampleBatch, limits: StoreLimits, now: Date) throws -> SampleWriteReport {
        let radioId = radio.rawValue
        var keys = Set(batch.positions.map(\.node))
        keys.formUnion(batch.telemetry.map(\.node))
        keys.formUnion(batch.stats.compactMap(\.node))
        var table = Table(db: db, radioId: radioId, ids: try ContactIndex.ids(db, radioId: radioId, keys: keys), now: now)

        let nodes = try table.insert(batch.positions, node: \.node) { id, _ in [id] }
        table.report.trimmed += try Caps.trimGroups(db, table: PositionSample.databaseTableName, columns: ["contactId"], groups: nodes,
                                                    radioId: radioId, cap: limits.positionsPerNode)
        let types = try table.insert(batch.telemetry, node: \.node) { [$0, Int64($1.record.type.code)] }
        table.report.trimmed += try Caps.trimGroups(db, table: TelemetrySample.databaseTableName, columns: ["contactId", "lppType"],
                                                    groups: types, radioId: radioId, cap: limits.telemetryPerNodeAndType)
        let statsNodes = try table.insert(batch.stats, node: \.node) { id, _ in [id] }
        table.report.trimmed += try Caps.trimGroups(db, table: StatsSample.databaseTableName, columns: ["contactId"], groups: statsNodes,
                                                    radioId: radioId, cap: limits.statsPerNode)
        if batch.stats.contains(where: { $0.node == nil }) {
            // The radio's own stats have no contact: capped as one more group.
            try db.execute(cached: """
                DELETE FROM stats_samples WHERE id IN (SELECT id FROM stats_samples WHERE radioId = ? AND contactId IS NULL
                ORDER BY recordedAt DESC, id DESC LIMIT -1 OFFSET ?)
                """, arguments: [radioId, limits.statsPerNode])
            table.report.trimmed += db.changesCount
        }
        let packets = try PacketWrites.insert(db, radioId: radioId, packets: batch.packets, cap: limits.packetsPerRadio, now: now)
        table.report.inserted += packets.inserted
        table.report.trimmed += packets.trimmed
        return table.report
    }

    /// Inserts of one batch: the contact ids it resolved, and what it did.
    private struct Table {
        let db: Database
        let radioId: Int64
        let ids: [PublicKey: Int64]
        let now: Date
        var report = SampleWriteReport()

        /// Inserts one table's samples (a sample without a node is the radio's own); returns the
        /// cap groups it touched, each named by `group(contactId, sample)`.
        mutating func insert<S: StoredSample>(_ samples: [S], node: (S) -> PublicKey?, group: (Int64, S) -> [Int64]) throws -> Set<[Int64]> {
            guard !samples.isEmpty else { return [] }
            let insert = try BulkInsert(db, SampleRecord<S>.self)
            var touched = Set<[Int64]>()
            for sample in samples {
                var contactId: Int64?
                if let key = node(sample) {
                    guard let id = ids[key] else {
                        report.skippedUnknownNodes += 1
                        continue
                    }
                    contactId = id
                    touched.insert(group(id, sample))
                }
                try insert.insert(SampleRecord(radioId: radioId, contactId: contactId, sample: sample, now: now))
                report.inserted += 1
            }
            try insert.finish()
            return touched
        }
    }
}
