import NIOCore
import PostgresNIO

/// Reads a row's columns in order, each as the type its query selects.
struct RegionRowReader {
    private let cells: [PostgresCell]
    private var index = 0

    init(_ row: PostgresRow) { cells = Array(row) }

    mutating func next<Value: PostgresDecodable>(_: Value.Type) throws -> Value {
        defer { index += 1 }
        return try cells[index].decode(Value.self)
    }

    /// A bigint count.
    mutating func count() throws -> Int { Int(try next(Int64.self)) }

    mutating func bytes() throws -> [UInt8] { Array(buffer: try next(ByteBuffer.self)) }

    mutating func optionalBytes() throws -> [UInt8]? { try next(ByteBuffer?.self).map { Array(buffer: $0) } }
}
