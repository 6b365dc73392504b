import MeshCodec

/// The radio a row belongs to. Derived from the radio's public key (its first 8 bytes as a
/// big-endian signed integer), so the id is the same in every database and needs no lookup.
public struct RadioID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public init(publicKey: PublicKey) {
        rawValue = Int64(bitPattern: publicKey.bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    public static func < (a: RadioID, b: RadioID) -> Bool { a.rawValue < b.rawValue }
    /// The 8 key bytes in hex, the way the radio's key starts.
    public var description: String { Hex.encode((0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: rawValue) >> (56 - 8 * UInt64($0))) }) }
}
