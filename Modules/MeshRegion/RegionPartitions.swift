import Foundation
import Logging
import PostgresNIO

/// Observations are partitioned by UTC day (`observations_YYYYMMDD`), each partition made on
/// demand before a batch that reaches its day is written (the migration's
/// `region_observation_partition`), and dropped whole once it is past the retention setting.
enum RegionPartitions {
    /// Makes the partitions of `days` (days since 1970, UTC) that do not exist yet, each in a
    /// transaction of its own so a batch's transaction never holds the partition lock.
    static func create(days: some Sequence<Int>, on connection: PostgresConnection, logger: Logger) async throws {
        for day in days.sorted() {
            let start = Date(timeIntervalSince1970: Double(day) * 86_400)
            try await connection.query("SELECT region_observation_partition(\(start)::date)", logger: logger)
        }
    }

    /// Drops the partitions whose whole day ends at or before `cutoff`; returns their names.
    static func dropBefore(_ cutoff: Date, on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        let rows = try await connection.query("""
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'observations'::regclass AND c.relname ~ '^observations_[0-9]{8}$'
              AND to_date(substr(c.relname, 14), 'YYYYMMDD') + 1 <= \(cutoff)::date
            ORDER BY c.relname
            """, logger: logger)
        var names: [String] = []
        for try await name in rows.decode(String.self) { names.append(name) }
        // The names are the catalog's own, matched above to observations_ and eight digits.
        for name in names { try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE \(name)"), logger: logger) }
        return names
    }

    /// The tables trimmed row by row, each with the time a row is judged by.
    static let trimmed: [(table: String, time: String)] = [
        ("observers", "last_seen"), ("packets", "last_seen"), ("logical_packets", "last_seen"), ("nodes", "last_seen"),
        ("node_adverts", "heard_at"), ("channel_messages", "heard_at"), ("trace_events", "heard_at"),
        ("rejected_messages", "received_at"), ("observer_links", "last_heard"), ("region_hours", "hour"),
    ]

    /// Deletes the rows of the unpartitioned tables last seen before `cutoff`; returns how many per table.
    static func trim(before cutoff: Date, on connection: PostgresConnection, logger: Logger) async throws -> [String: Int] {
        var deleted: [String: Int] = [:]
        for (table, time) in trimmed {
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "WITH gone AS (DELETE FROM \(table) WHERE \(time) < $1 RETURNING 1) SELECT count(*) FROM gone",
                              binds: binds(cutoff)),
                logger: logger)
            for try await count in rows.decode(Int.self) { deleted[table] = count }
        }
        try await reelectBest(trimmedBefore: cutoff, on: connection, logger: logger)
        return deleted
    }

    /// A node whose best link was just trimmed (its last hearing, kept on the node, is before
    /// `cutoff`) gets the best of the links left, or none.
    static func reelectBest(trimmedBefore cutoff: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            UPDATE nodes n SET (best_observer, best_snr, best_heard) = (SELECT * FROM region_best_link(n.key))
            WHERE n.best_heard < \(cutoff)
            """, logger: logger)
    }

    private static func binds(_ date: Date) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(date)
        return binds
    }
}
