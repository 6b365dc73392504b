import Foundation
import GRDB

/// Integrity check and online backup. Both only read the source, so they work read-only
/// and while the radio keeps writing.
enum Maintenance {
    static func integrity(_ database: StoreDatabase) throws(StoreError) -> IntegrityReport {
        try database.read("integrity check of \(database.path)") { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            var violations: [String] = []
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                let table: String = try row.decode(atIndex: 0)
                let rowid: Int64? = try row.decode(atIndex: 1)
                let parent: String = try row.decode(atIndex: 2)
                violations.append("\(table) row \(rowid.map(String.init) ?? "?") -> \(parent)")
            }
            let applied = try Migrations.migrator.appliedIdentifiers(db)
            return IntegrityReport(
                integrity: integrity, foreignKeyViolations: violations, appliedMigrations: Migrations.names.filter(applied.contains),
                pendingMigrations: Migrations.names.filter { !applied.contains($0) },
                pageCount: try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0, pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
    }

    /// Copies the live database page by page with SQLite's backup API into a new file.
    static func backup(_ database: StoreDatabase, to destination: String, overwrite: Bool,
                       progress: (@Sendable (StoreProgress) -> Void)?) throws(StoreError) -> BackupReport {
        let start = ContinuousClock.now
        let files = FileManager.default
        if files.fileExists(atPath: destination) {
            guard overwrite else { throw database.fail(.backup(destination: destination, reason: "the file exists (pass overwrite to replace it)")) }
            for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: destination + suffix) {
                do { try files.removeItem(atPath: destination + suffix) } catch {
                    throw database.fail(.backup(destination: destination, reason: "cannot replace it: \(error.localizedDescription)"))
                }
            }
        }
        var pages = 0
        var pageSize = 0
        do {
            let target = try DatabaseQueue(path: destination)
            try database.writer.backup(to: target, pagesPerStep: 1024) { p in
                pages = p.totalPageCount
                progress?(StoreProgress(phase: "backup", done: p.completedPageCount, total: p.totalPageCount))
            }
            pageSize = try target.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } ?? 0
            try target.close()
        } catch {
            throw database.fail(.backup(destination: destination, reason: StoreError.reason(error)))
        }
        let size = pages * pageSize
        return BackupReport(destination: destination, pages: pages, bytes: size, seconds: (ContinuousClock.now - start).seconds)
    }
}
