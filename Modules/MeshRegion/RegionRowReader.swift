import NIOCore
import PostgresNIO

/// Reads a row's columns in order, each as the type its query selects. The cells are walked, not
/// copied: the map's page reads 5,000 rows (Docs/scale-out.md, "Sizing").
struct RegionRowReader {
    private var cells: PostgresRow.Iterator
    private var index = 0

    init(_ row: PostgresRow) { cells = row.makeIterator() }

    mutating func next<Value: PostgresDecodable>(_: Value.Type) throws -> Value {
        defer { index += 1 }
        guard let cell = cells.next() else { throw MissingColumn(index: index) }
        return try cell.decode(Value.self)
    }

    /// The query selects fewer columns than its reader reads: a mistake in this module.
    struct MissingColumn: Error, CustomStringConvertible {
        let index: Int
        var description: String { "the row has no column \(index + 1): the query and its reader disagree" }
    }

    /// A bigint count.
    mutating func count() throws -> Int { Int(try next(Int64.self)) }

    mutating func bytes() throws -> [UInt8] { Array(buffer: try next(ByteBuffer.self)) }

    mutating func optionalBytes() throws -> [UInt8]? { try next(ByteBuffer?.self).map { Array(buffer: $0) } }
}
