import Foundation
import GRDB
import MeshCodec

/// A stored value that cannot be what its column promises (a key of the wrong length, an
/// unknown LPP type): the row is reported, not skipped.
struct CorruptRow: Error, CustomStringConvertible {
    let table: String
    let column: String
    let reason: String
    var description: String { "\(table).\(column): \(reason)" }
}

extension Row {
    func millis(_ column: String) throws -> Date { Date(storeMillis: try decode(Int64.self, forColumn: column)) }

    func optionalMillis(_ column: String) throws -> Date? {
        try decode(Int64?.self, forColumn: column).map(Date.init(storeMillis:))
    }

    func bytes(_ column: String) throws -> [UInt8] { [UInt8](try decode(Data.self, forColumn: column)) }

    func publicKey(_ column: String, table: String) throws -> PublicKey {
        let b = try bytes(column)
        guard let key = PublicKey(b) else { throw CorruptRow(table: table, column: column, reason: "\(b.count)-byte key") }
        return key
    }
}
