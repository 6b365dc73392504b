/// The encoded `path_len` byte (Docs/protocol.md §2). Since v1.14 bits 0-5 are the hop count and
/// bits 6-7 the hash size minus one; 0xFF means no path (flood, or "arrived direct" in
/// receive frames).
public struct PathLength: Hashable, Sendable, CustomStringConvertible {
    public let raw: UInt8

    public static let none = PathLength(raw: 0xFF)

    public init(raw: UInt8) { self.raw = raw }

    /// A path of `hops` hops with `hashSize`-byte hop hashes (1, 2 or 3).
    public init?(hops: Int, hashSize: Int = 1) {
        guard (0...63).contains(hops), (1...3).contains(hashSize), hops * hashSize <= Path.maxBytes else { return nil }
        raw = UInt8(hashSize - 1) << 6 | UInt8(hops)
    }

    public var isNone: Bool { raw == 0xFF }
    public var hopCount: Int { isNone ? 0 : Int(raw & 0x3F) }
    /// Bytes per hop hash; 4 is the reserved encoding (mode 3).
    public var hashSize: Int { isNone ? 1 : Int(raw >> 6) + 1 }
    /// Valid unless it uses reserved mode 3 or exceeds 64 path bytes.
    public var isValid: Bool { isNone || (hashSize <= 3 && byteCount <= Path.maxBytes) }
    /// Number of path bytes that follow this byte where a path is carried.
    public var byteCount: Int { hopCount * hashSize }

    public var description: String {
        isNone ? "none" : "\(hopCount) hop(s) x \(hashSize) byte(s)"
    }
}

/// A path: its encoded length and hop-hash bytes.
public struct Path: Hashable, Sendable {
    public static let maxBytes = 64
    public var length: PathLength
    public var bytes: [UInt8]

    public static let none = Path(length: .none, bytes: [])

    public init(length: PathLength, bytes: [UInt8]) {
        self.length = length
        self.bytes = bytes
    }

    /// Hop hashes of `hashSize` bytes each.
    public init?(hops: [[UInt8]], hashSize: Int = 1) {
        guard hops.allSatisfy({ $0.count == hashSize }), let len = PathLength(hops: hops.count, hashSize: hashSize) else { return nil }
        self.init(length: len, bytes: hops.flatMap { $0 })
    }

    public var hops: [[UInt8]] {
        guard !length.isNone, length.hashSize > 0 else { return [] }
        return stride(from: 0, to: bytes.count, by: length.hashSize).map { Array(bytes[$0..<min($0 + length.hashSize, bytes.count)]) }
    }

    /// Reads a path_len byte and the path bytes it announces.
    static func read(_ r: inout ByteReader, _ field: String) throws -> Path {
        let at = r.offset
        let len = PathLength(raw: try r.u8("\(field) length"))
        guard len.isValid else { throw r.invalid("\(field) length", at: at, "reserved hash mode or over \(maxBytes) bytes (0x\(Hex.encode([len.raw])))") }
        return Path(length: len, bytes: try r.bytes(len.byteCount, field))
    }

    func write(_ w: inout ByteWriter) {
        w.u8(length.raw)
        w.append(bytes)
    }
}
