import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The region history in PostgreSQL: one connection, one writer. Each batch is one
/// transaction; when the connection is lost the batch fails with a `retryLater` error and the
/// next call connects again. Schema: `RegionMigrations`; partitions and retention:
/// `RegionPartitions`; the statements: `RegionWrites` (Docs/region.md).
public actor RegionStore: RegionSink {
    public nonisolated var url: RegionDatabaseURL { connector.url }
    private let connector: RegionConnector
    private let log: @Sendable (String) -> Void
    /// postgres-nio's own logging is not ours to print; failures reach the caller as errors.
    private let logger = Logger(label: "meshport.region", factory: { _ in SwiftLogNoOpLogHandler() })
    private var connection: PostgresConnection?
    /// Connections made so far; each one's id in postgres-nio.
    private var connectionsMade = 0
    /// Days whose observation partition is known to exist.
    private var partitionDays: Set<Int> = []
    private var isClosed = false
    /// How long a batch may wait for the server's answers before its connection is dropped
    /// (RegionAnswerLimit.swift).
    let answerLimit: Duration

    private init(connector: RegionConnector, answerLimit: Duration, log: @escaping @Sendable (String) -> Void) {
        self.connector = connector
        self.answerLimit = answerLimit
        self.log = log
    }

    deinit {
        // A store released without close(): its connection closes on its event loop.
        if let connection { Self.closeLater(connection) }
    }

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database[?sslmode=...]`),
    /// reading the TLS files it names first. `answerLimit`: how long a batch may wait for the
    /// server's answers; past it the batch fails as `away` and its connection is dropped.
    public static func connect(url: String, answerLimit: Duration = .seconds(60),
                               log: @escaping @Sendable (String) -> Void) async throws(RegionStoreError) -> RegionStore {
        let store = RegionStore(connector: try RegionConnector(url: try RegionDatabaseURL(url)), answerLimit: answerLimit, log: log)
        _ = try await store.liveConnection()
        return store
    }

    /// Applies the migrations this database has not had yet, each in its own transaction.
    public func migrate() async throws(RegionStoreError) { try await migrate(upTo: nil) }

    /// `migrate()` stopping after migration `last`: the schema as that step left it.
    func migrate(upTo last: String?) async throws(RegionStoreError) {
        let connection = try await liveConnection()
        // One migrator at a time across workers; the lock goes with the session if it breaks.
        let lock: Int64 = 0x6D65_7368_7265_6769
        var current = "(the migration ledger)"
        do {
            try await connection.query("SELECT pg_advisory_lock(\(lock))", logger: logger)
            do {
                try await applyMigrations(upTo: last, on: connection) { current = $0 }
            } catch {
                await unlock(lock, on: connection)
                throw error
            }
            await unlock(lock, on: connection)
        } catch {
            throw failure(error) { reason in .migrationFailed(name: current, reason: reason) }
        }
    }

    private func applyMigrations(upTo last: String?, on connection: PostgresConnection, starting: (String) -> Void) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: RegionMigrations.ledger), logger: logger)
        var applied: Set<String> = []
        for try await name in try await connection.query("SELECT name FROM region_migrations", logger: logger).decode(String.self) {
            applied.insert(name)
        }
        let unknown = applied.subtracting(RegionMigrations.names)
        guard unknown.isEmpty else { throw RegionStoreError.schemaTooNew(unknown: unknown.sorted()) }
        for migration in RegionMigrations.all {
            if !applied.contains(migration.name) {
                starting(migration.name)
                try await transaction(on: connection) { connection, logger in
                    for statement in migration.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                    try await connection.query("INSERT INTO region_migrations (name) VALUES (\(migration.name))", logger: logger)
                }
                log("Region schema: applied migration \(migration.name).")
            }
            if migration.name == last { break }
        }
    }

    private func unlock(_ lock: Int64, on connection: PostgresConnection) async {
        do { try await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger) } catch {
            log("Releasing the migration lock on PostgreSQL at \(url.server) failed (\(RegionFailure.reason(error))); it goes with the connection.")
        }
    }

    /// Writes the batch in one transaction. Throws a `RegionStoreError` whose `retryLater`
    /// says whether the same batch may be written again later.
    public func write(_ batch: RegionBatch) async throws(RegionStoreError) {
        guard !batch.isEmpty else { return }
        let rows = try RegionRows(batch)
        let reused = connection != nil
        do {
            try await write(rows)
        } catch {
            // A connection that broke while idle (the server restarted) fails at its first
            // query: one more try on a new one. Writing twice is harmless (idempotent).
            guard reused, case .away = error else { throw error }
            try await write(rows)
        }
    }

    private func write(_ rows: RegionRows) async throws(RegionStoreError) {
        let connection = try await liveConnection()
        do {
            try await RegionAnswerLimit.run(answerLimit, expired: { Self.closeLater(connection) }) {
                try await self.write(rows, on: connection)
            }
        } catch is RegionAnswerLimit.Expired {
            if self.connection === connection { self.connection = nil }
            partitionDays = []
            throw .away(server: url.server, reason: "no answer within \(answerLimit), so it was dropped")
        } catch {
            // Another worker's retention may have dropped a partition this one remembered.
            partitionDays = []
            throw failure(error) { reason in .writeFailed(reason: reason) }
        }
    }

    private func write(_ rows: RegionRows, on connection: PostgresConnection) async throws {
        let missing = rows.days.subtracting(partitionDays)
        try await RegionPartitions.create(days: missing, on: connection, logger: logger)
        partitionDays.formUnion(missing)
        try await transaction(on: connection) { connection, logger in
            try await RegionWrites.write(rows, on: connection, logger: logger)
        }
    }

    /// Drops the observation partitions older than `days` days before `now` and deletes the
    /// rows of the other tables last seen before then.
    @discardableResult
    public func applyRetention(keepingDays days: Int, now: Date = Date()) async throws(RegionStoreError) -> RetentionReport {
        guard days >= 1 else { throw .retentionFailed(reason: "the retention must keep at least 1 day (given \(days))") }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        let connection = try await liveConnection()
        do {
            let dropped = try await RegionPartitions.dropBefore(cutoff, on: connection, logger: logger)
            partitionDays = []
            let deleted = try await RegionPartitions.trim(before: cutoff, on: connection, logger: logger)
            let report = RetentionReport(cutoff: cutoff, droppedPartitions: dropped, deletedRows: deleted)
            log("Region retention (\(days) days): \(report).")
            return report
        } catch {
            throw failure(error) { reason in .retentionFailed(reason: reason) }
        }
    }

    /// Closes the connection; later calls throw `.closed`.
    public func close() async {
        isClosed = true
        guard let connection else { return }
        self.connection = nil
        await drop(connection)
    }

    /// Closes `connection` without waiting, keeping it until it is closed (postgres-nio
    /// asserts that a connection is closed before it is released).
    static func closeLater(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private func drop(_ connection: PostgresConnection) async {
        do { try await connection.close() } catch {
            log("Closing the connection to PostgreSQL at \(url.server) failed (\(RegionFailure.reason(error))); it is dropped.")
        }
    }

    /// The open connection, or a new one (after a loss, a restart of the server).
    private func liveConnection() async throws(RegionStoreError) -> PostgresConnection {
        guard !isClosed else { throw .closed }
        if let connection, !connection.isClosed { return connection }
        if connection != nil { log("The connection to PostgreSQL at \(url.server) was lost; connecting again.") }
        connection = nil
        connectionsMade += 1
        do {
            let (connector, id, logger) = (connector, connectionsMade, logger)
            let connection = try await RegionAnswerLimit.run(answerLimit, late: { Self.closeLater($0) }) {
                try await connector.connect(id: id, logger: logger)
            }
            self.connection = connection
            return connection
        } catch is RegionAnswerLimit.Expired {
            throw .unreachable(server: url.server, reason: "no answer within \(answerLimit)")
        } catch {
            let reason = RegionFailure.reason(error)
            switch RegionFailure.connectKind(of: error) {
            case .refused: throw RegionStoreError.refused(url: url.description, reason: reason)
            case .tls: throw RegionStoreError.tlsFailed(url: url.description, reason: reason)
            case .unreachable: throw RegionStoreError.unreachable(server: url.server, reason: reason)
            }
        }
    }

    /// BEGIN, `body`, COMMIT; ROLLBACK when `body` throws (and the connection dropped when even that fails).
    private func transaction(on connection: PostgresConnection,
                             _ body: (PostgresConnection, Logger) async throws -> Void) async throws {
        try await connection.query("BEGIN", logger: logger)
        do {
            try await body(connection, logger)
        } catch {
            do { try await connection.query("ROLLBACK", logger: logger) } catch {
                // A connection that cannot roll back is not used again. Only this one: a write
                // that ran out of time ends here later, when a new connection may be in use.
                if self.connection === connection { self.connection = nil }
                await drop(connection)
            }
            throw error
        }
        try await connection.query("COMMIT", logger: logger)
    }

    /// The error to report for `error`: the database away or busy (retry later), or what
    /// `otherwise` makes of the database's reason.
    private func failure(_ error: any Error, otherwise: (String) -> RegionStoreError) -> RegionStoreError {
        if let error = error as? RegionStoreError { return error }
        if connection?.isClosed ?? false { connection = nil }
        switch RegionFailure.kind(of: error) {
        case .away:
            // Not used again, whatever state it thinks it is in; the next call connects anew.
            if let connection { Self.closeLater(connection) }
            connection = nil
            return .away(server: url.server, reason: RegionFailure.reason(error))
        case .busy: return .busy(server: url.server, reason: RegionFailure.reason(error))
        case .badData: return .badBatch(reason: RegionFailure.reason(error))
        case .other: return otherwise(RegionFailure.reason(error))
        }
    }
}

/// What `applyRetention` removed.
public struct RetentionReport: Sendable, Equatable, CustomStringConvertible {
    /// Rows last seen before this time were removed.
    public var cutoff: Date
    public var droppedPartitions: [String]
    /// Deleted rows per unpartitioned table.
    public var deletedRows: [String: Int]

    public var description: String {
        let rows = deletedRows.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) from \($0.key)" }
        let partitions = droppedPartitions.isEmpty ? "no partition dropped" : "dropped \(droppedPartitions.joined(separator: ", "))"
        return "\(partitions); deleted \(rows.isEmpty ? "no rows" : rows.joined(separator: ", "))"
    }
}
