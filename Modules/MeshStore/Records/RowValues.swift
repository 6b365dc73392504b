import Foundation
import GRDB

/// Records written on hot paths (seed, ingest, samples) write their columns once, in the
/// order of `columns`, to a sink: GRDB statement arguments (`values`, `encode(to:)`), or a
/// raw SQLite binding (`BulkInsert`). GRDB's `insert` builds a column dictionary per row,
/// which costs more than SQLite's own insert.
protocol RowValues {
    static var databaseTableName: String { get }
    static var columns: [String] { get }
    func write(to sink: inout some ColumnSink)
}

/// Where a record's column values go, in column order.
protocol ColumnSink {
    mutating func int64(_ value: Int64?)
    mutating func real(_ value: Double?)
    mutating func text(_ value: String?)
    mutating func blob(_ value: [UInt8]?)
}

extension ColumnSink {
    mutating func int<T: BinaryInteger>(_ value: T?) { int64(value.map { Int64($0) }) }
    mutating func bool(_ value: Bool) { int64(value ? 1 : 0) }
}

/// Collects values for GRDB (statement arguments, persistence containers).
struct ArgumentSink: ColumnSink {
    var values: [(any DatabaseValueConvertible)?] = []
    mutating func int64(_ value: Int64?) { values.append(value) }
    mutating func real(_ value: Double?) { values.append(value) }
    mutating func text(_ value: String?) { values.append(value) }
    mutating func blob(_ value: [UInt8]?) { values.append(value.map { Data($0) }) }
}

extension RowValues {
    /// `skipping`: a unique index whose conflicts skip the row (`ON CONFLICT(...) DO NOTHING`);
    /// every other constraint still fails the insert.
    static func makeInsertSQL(into table: String = databaseTableName, skipping conflictTarget: String? = nil) -> String {
        let marks = repeatElement("?", count: columns.count).joined(separator: ", ")
        let skip = conflictTarget.map { " ON CONFLICT(\($0)) DO NOTHING" } ?? ""
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(marks))\(skip)"
    }

    var values: [(any DatabaseValueConvertible)?] {
        var sink = ArgumentSink()
        write(to: &sink)
        return sink.values
    }

    func encodeValues(to container: inout PersistenceContainer) {
        for (column, value) in zip(Self.columns, values) { container[column] = value }
    }

    /// Runs `sql` (an insert built by `makeInsertSQL`) from GRDB's statement cache.
    /// - Returns: whether a row was inserted (false when a skipped conflict left it out).
    @discardableResult
    func insertRow(_ db: Database, sql: String) throws -> Bool {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(StatementArguments(values))
        try statement.execute()
        return db.changesCount == 1
    }
}
