import Foundation
import GRDB
import MeshCodec

/// Maps contact keys to row ids, one query per chunk of keys (the "fetch" of a batch).
enum ContactIndex {
    /// SQLite's bound-parameter limit is far above this; the chunk keeps statements cacheable.
    static let chunk = 500

    static func ids(_ db: Database, radioId: Int64, keys: some Collection<PublicKey>) throws -> [PublicKey: Int64] {
        var out: [PublicKey: Int64] = [:]
        out.reserveCapacity(keys.count)
        let unique = Array(Set(keys))
        var start = 0
        while start < unique.count {
            let part = unique[start..<min(start + chunk, unique.count)]
            let marks = repeatElement("?", count: part.count).joined(separator: ",")
            var args: [(any DatabaseValueConvertible)?] = [radioId]
            args += part.map { Data($0.bytes) }
            let rows = try Row.fetchCursor(db, sql: "SELECT id, publicKey FROM contacts WHERE radioId = ? AND publicKey IN (\(marks))",
                                           arguments: StatementArguments(args))
            while let row = try rows.next() {
                out[try row.publicKey("publicKey", table: "contacts")] = try row.decode(forColumn: "id")
            }
            start += chunk
        }
        return out
    }

    /// Contacts whose key starts with `prefix`, at most `limit` (2 tells unique from ambiguous).
    /// The unique (radioId, publicKey) index serves it as a range scan: prefix <= key < next(prefix).
    static func matching(_ db: Database, radioId: Int64, prefix: [UInt8], limit: Int) throws -> [ContactRecord] {
        let (sql, arguments) = range(prefix, columns: "*", radioId: radioId, limit: limit)
        return try ContactRecord.fetchAll(cached: db, sql: sql, arguments: arguments)
    }

    /// The same range, only the named columns (the sender resolution of an ingest batch).
    static func matchingRows(_ db: Database, radioId: Int64, prefix: [UInt8], columns: String, limit: Int) throws -> [Row] {
        let (sql, arguments) = range(prefix, columns: columns, radioId: radioId, limit: limit)
        return try Row.fetchAll(cached: db, sql: sql, arguments: arguments)
    }

    private static func range(_ prefix: [UInt8], columns: String, radioId: Int64, limit: Int) -> (String, StatementArguments) {
        if let upper = successor(prefix) {
            return ("SELECT \(columns) FROM contacts WHERE radioId = ? AND publicKey >= ? AND publicKey < ? ORDER BY publicKey LIMIT ?",
                    [radioId, Data(prefix), Data(upper), limit])
        }
        return ("SELECT \(columns) FROM contacts WHERE radioId = ? AND publicKey >= ? ORDER BY publicKey LIMIT ?", [radioId, Data(prefix), limit])
    }

    static func count(_ db: Database, radioId: Int64, prefix: [UInt8]) throws -> Int {
        if let upper = successor(prefix) {
            return try Int.fetchOne(cached: db, sql: "SELECT count(*) FROM contacts WHERE radioId = ? AND publicKey >= ? AND publicKey < ?",
                                    arguments: [radioId, Data(prefix), Data(upper)]) ?? 0
        }
        return try Int.fetchOne(cached: db, sql: "SELECT count(*) FROM contacts WHERE radioId = ? AND publicKey >= ?",
                                arguments: [radioId, Data(prefix)]) ?? 0
    }

    /// The smallest byte string greater than every string starting with `prefix`; nil if
    /// the prefix is all 0xFF (no upper bound).
    static func successor(_ prefix: [UInt8]) -> [UInt8]? {
        var b = prefix
        while let last = b.last {
            if last < 0xFF {
                b[b.count - 1] = last + 1
                return b
            }
            b.removeLast()
        }
        return nil
    }
}
