import Foundation
import GRDB
import GRDBSQLite

/// An INSERT prepared once per batch and run per row with SQLite's own bind calls: the
/// seed and sample paths write a million rows, where GRDB's per-row argument arrays cost
/// more than SQLite's insert itself.
///
/// Rows written this way bypass GRDB's statement hooks, so `finish()` re-announces the
/// table to GRDB with a no-op update of the last row: ValueObservations of the table then
/// see the change at commit, as with any GRDB statement.
final class BulkInsert {
    private let db: Database
    private let table: String
    private let sql: String
    private var statement: OpaquePointer?
    private var lastRowID: Int64?

    /// `table`: another table with the record's columns (a staging table); the record's own by default.
    init<R: RowValues>(_ db: Database, _ type: R.Type, into table: String? = nil, skipping conflictTarget: String? = nil) throws {
        self.db = db
        self.table = table ?? R.databaseTableName
        sql = R.makeInsertSQL(into: self.table, skipping: conflictTarget)
        guard let connection = db.sqliteConnection else { throw DatabaseError(message: "the connection is closed", sql: sql) }
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }

    deinit { sqlite3_finalize(statement) }

    /// - Returns: the new row's id, or nil when a conflict skipped it.
    @discardableResult
    func insert(_ record: some RowValues) throws -> Int64? {
        var binder = Binder(statement: statement)
        record.write(to: &binder)
        let code = binder.status == SQLITE_OK ? sqlite3_step(statement) : binder.status
        let message = code == SQLITE_DONE ? nil : String(cString: sqlite3_errmsg(db.sqliteConnection))
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql) }
        guard sqlite3_changes(db.sqliteConnection) == 1 else { return nil }
        let id = sqlite3_last_insert_rowid(db.sqliteConnection)
        lastRowID = id
        return id
    }

    /// Tells GRDB's transaction observers that the table changed (see the type's comment).
    func finish() throws {
        guard let lastRowID else { return }
        try db.execute(cached: "UPDATE \(table) SET id = id WHERE id = ?", arguments: [lastRowID])
    }

    private struct Binder: ColumnSink {
        let statement: OpaquePointer?
        var index: Int32 = 1
        var status = SQLITE_OK
        // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
        static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

        mutating func done(_ code: Int32) {
            if status == SQLITE_OK { status = code }
            index += 1
        }

        mutating func int64(_ value: Int64?) {
            done(value.map { sqlite3_bind_int64(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
        }

        mutating func real(_ value: Double?) {
            done(value.map { sqlite3_bind_double(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
        }

        mutating func text(_ value: String?) {
            guard let value else { return done(sqlite3_bind_null(statement, index)) }
            done(sqlite3_bind_text(statement, index, value, -1, Self.transient))
        }

        mutating func blob(_ value: [UInt8]?) {
            guard let value else { return done(sqlite3_bind_null(statement, index)) }
            // An empty array may have no storage; a zero-length blob is still not NULL.
            done(value.isEmpty ? sqlite3_bind_zeroblob(statement, index, 0)
                : value.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) })
        }
    }
}
