import Foundation
import GRDB
import MeshCodec

/// Meshport's durable history: one SQLite file (WAL, foreign keys on) holding any number of
/// radios, each row belonging to one.
///
/// - `writer`: the one writer actor; messages, contacts and settings are written at once.
/// - `reader`: concurrent reads and observation streams.
/// - `record(...)`: positions, telemetry and stats, coalesced (2 s idle, 5 s ceiling) and
///   flushed on `radioDisconnected` and `close`.
public final class MeshStore: Sendable {
    public let path: String
    public let mode: OpenMode
    public let reader: StoreReader
    public let writer: StoreWriter
    public let coalescer: WriteCoalescer<ContinuousClock>
    let database: StoreDatabase
    /// SQLite's page cache per connection (see `open`).
    static let writerCacheKiB = 65_536
    static let readerCacheKiB = 8_192

    /// Opens (creating if needed, read-write) and migrates the database at `path`.
    public static func open(at path: String, options: StoreOptions = StoreOptions()) throws(StoreError) -> MeshStore {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.readonly = options.mode == .readOnly
        config.label = "MeshStore"
        // Another process (a CLI inspecting a live file) may hold the write lock briefly.
        config.busyMode = .timeout(5)
        let synchronous = options.durability == .full ? "FULL" : "NORMAL"
        let readOnly = options.mode == .readOnly
        config.prepareDatabase { db in
            if !readOnly {
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                // Checkpoint every ~40 MB of WAL instead of 4 MB: hot index pages are copied
                // back once per checkpoint, so fewer checkpoints mean less rewriting (+20% ingest).
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
            }
            // The writer keeps 64 MiB of pages (the indexes of 100k nodes stay cached while it
            // ingests); a reader 8 MiB, since a page or a search touches few pages and the rest come
            // from the kernel's cache, shared by every connection. At 64 MiB each, the pool's
            // readers and the lookup connection could hold 450 MiB after months of a growing store.
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -Self.readerCacheKiB : -Self.writerCacheKiB)")
            // Statement journals and temporary tables in memory: a batch's one INSERT journals
            // a few MB, which a temporary file would copy through the kernel (half of all bytes
            // written). Neither is part of what a commit makes durable.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw report(.open(path: path, reason: "no such file"), options)
        }
        let writer: any DatabaseWriter
        do {
            if readOnly {
                writer = try DatabaseQueue(path: path, configuration: config)
            } else {
                writer = try DatabasePool(path: path, configuration: config)
            }
        } catch {
            throw report(.open(path: path, reason: StoreError.reason(error)), options)
        }
        var database = StoreDatabase(writer: writer, lookups: nil, path: path, options: options)
        try checkSchema(database)
        // Opened after the migrations: the lookup connection reads the current schema.
        var lookupConfig = config
        lookupConfig.readonly = true
        do {
            database.lookups = readOnly ? writer as? DatabaseQueue : try DatabaseQueue(path: path, configuration: lookupConfig)
        } catch {
            throw report(.open(path: path, reason: StoreError.reason(error)), options)
        }
        return MeshStore(database: database)
    }

    private init(database: StoreDatabase) {
        self.database = database
        path = database.path
        mode = database.options.mode
        reader = StoreReader(database: database)
        writer = StoreWriter(database: database)
        coalescer = WriteCoalescer(writer: writer, clock: ContinuousClock(), idleDelay: database.options.coalesceIdle,
                                    ceiling: database.options.coalesceCeiling)
    }

    /// Read-write: applies missing migrations. Read-only: refuses a schema it would have
    /// to change. Both refuse a file from a newer release.
    private static func checkSchema(_ database: StoreDatabase) throws(StoreError) {
        let path = database.path
        let applied: Set<String>
        do {
            applied = try database.writer.read { db in try Migrations.migrator.appliedIdentifiers(db) }
        } catch {
            throw report(.open(path: path, reason: StoreError.reason(error)), database.options)
        }
        let unknown = applied.subtracting(Migrations.names)
        guard unknown.isEmpty else { throw report(.schemaTooNew(path: path, unknown: unknown.sorted()), database.options) }
        let missing = Migrations.names.filter { !applied.contains($0) }
        guard !missing.isEmpty else { return }
        guard !database.isReadOnly else { throw report(.schemaOutdated(path: path, missing: missing), database.options) }
        do {
            // What is applied is read again under the lock: another process may have migrated
            // the file meanwhile. A file that already holds a history is copied first, so an
            // upgrade can be undone (Docs/operations.md, "Upgrade").
            try MigrationLock.holding(for: path) {
                let applied = try database.writer.read { db in try Migrations.migrator.appliedIdentifiers(db) }
                if !applied.isEmpty, let next = Migrations.names.first(where: { !applied.contains($0) }) {
                    _ = try Maintenance.backup(database, to: Migrations.backupPath(of: path, before: next), overwrite: true, progress: nil)
                }
                try Migrations.migrator.migrate(database.writer)
            }
        } catch {
            throw report(error, database.options)
        }
    }

    private static func report(_ error: StoreError, _ options: StoreOptions) -> StoreError {
        options.onError(error)
        return error
    }

    // MARK: Coalesced writes

    /// Queues positions, telemetry and stats; written within 2 to 5 s (see `WriteCoalescer`).
    public func record(_ radio: RadioID, _ samples: SampleBatch) async {
        await coalescer.add(radio, samples)
    }

    public func record(_ radio: RadioID, position: PositionSample) async { await record(radio, SampleBatch(positions: [position])) }
    public func record(_ radio: RadioID, telemetry: [TelemetrySample]) async { await record(radio, SampleBatch(telemetry: telemetry)) }
    public func record(_ radio: RadioID, stats: StatsSample) async { await record(radio, SampleBatch(stats: [stats])) }

    /// The radio's link is gone: writes what waits and marks its remote sessions disconnected.
    @discardableResult
    public func radioDisconnected(_ radio: RadioID) async throws(StoreError) -> FlushReport {
        let report = try await coalescer.flush(.disconnect)
        try await writer.setLoginConnected(radio, node: nil, false)
        return report
    }

    /// Writes what waits, then closes the file. Nothing may be called afterwards.
    @discardableResult
    public func close() async throws(StoreError) -> FlushReport {
        let report = try await coalescer.shutdown()
        do {
            if !database.isReadOnly {
                try database.lookups?.close()
                try await foldWAL()
            }
            try database.writer.close()
        } catch {
            throw database.fail(.close(path: path, reason: StoreError.reason(error)))
        }
        return report
    }

    /// Moves the WAL into the main file, so the file alone is the whole database. While
    /// another process still reads the file (`meshport serve` beside a CLI command) it cannot
    /// be truncated; the last one to close folds it in.
    private func foldWAL() async throws {
        do {
            _ = try await database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return
        }
    }

    // MARK: Maintenance

    /// PRAGMA integrity_check and foreign_key_check, and which migrations are applied.
    public func integrityCheck() throws(StoreError) -> IntegrityReport { try Maintenance.integrity(database) }

    /// An online backup (SQLite backup API) to a new file, while writes go on.
    public func backup(to destination: String, overwrite: Bool = false,
                       progress: (@Sendable (StoreProgress) -> Void)? = nil) throws(StoreError) -> BackupReport {
        try Maintenance.backup(database, to: destination, overwrite: overwrite, progress: progress)
    }
}
