/// Little-endian fields, as HCI, L2CAP, ATT and SMP all write them.
extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    mutating func appendLE(_ value: UInt64, bytes: Int) {
        for i in 0..<bytes { append(UInt8((value >> (8 * UInt64(i))) & 0xFF)) }
    }
}

/// Reads little-endian fields from a PDU; running past the end is a typed error naming the PDU.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0
    /// What is being read, for errors ("LE Connection Complete").
    let what: String

    init(_ bytes: some Collection<UInt8>, what: String) {
        self.bytes = Array(bytes)
        self.what = what
    }

    var remaining: Int { bytes.count - offset }

    mutating func u8() throws(TruncatedPDU) -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(TruncatedPDU) -> UInt16 {
        try need(2)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func take(_ count: Int) throws(TruncatedPDU) -> [UInt8] {
        try need(count)
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private func need(_ count: Int) throws(TruncatedPDU) {
        guard count >= 0, remaining >= count else {
            throw TruncatedPDU(what: what, length: bytes.count, needed: offset + count)
        }
    }
}

/// A PDU shorter than its fields.
public struct TruncatedPDU: Error, Equatable, CustomStringConvertible {
    public let what: String
    public let length: Int
    public let needed: Int
    public var description: String { "\(what) of \(length) bytes is truncated: its fields need at least \(needed)" }
}
