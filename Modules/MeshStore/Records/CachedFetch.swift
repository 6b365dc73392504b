import GRDB

// Hot queries reuse their prepared statement from GRDB's per-connection cache: preparing a
// statement against this schema costs more than running an indexed lookup.

extension FetchableRecord {
    static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension Row {
    static func fetchAll(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchCursor(cached db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension Database {
    func execute(cached sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
