/// Bounds-checked little-endian reader over one frame. Never traps: every read that would
/// pass the end throws `CodecError.truncated` naming the frame and field.
public struct ByteReader {
    public let bytes: [UInt8]
    public private(set) var offset: Int
    let frame: String

    public init(_ bytes: [UInt8], frame: String, offset: Int = 0) {
        self.bytes = bytes
        self.frame = frame
        self.offset = offset
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset >= bytes.count }

    mutating func need(_ n: Int, _ field: String) throws {
        if n > remaining {
            throw CodecError.truncated(frame: frame, field: field, offset: offset, needed: n, available: max(0, remaining))
        }
    }

    public mutating func u8(_ field: String) throws -> UInt8 {
        try need(1, field)
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func i8(_ field: String) throws -> Int8 { Int8(bitPattern: try u8(field)) }

    public mutating func u16(_ field: String) throws -> UInt16 {
        try need(2, field)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    public mutating func i16(_ field: String) throws -> Int16 { Int16(bitPattern: try u16(field)) }

    public mutating func u32(_ field: String) throws -> UInt32 {
        try need(4, field)
        defer { offset += 4 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    public mutating func i32(_ field: String) throws -> Int32 { Int32(bitPattern: try u32(field)) }

    /// Big-endian reads, used only by Cayenne LPP.
    public mutating func u16be(_ field: String) throws -> UInt16 {
        try need(2, field)
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    public mutating func bytes(_ n: Int, _ field: String) throws -> [UInt8] {
        try need(n, field)
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    public mutating func skip(_ n: Int, _ field: String) throws {
        try need(n, field)
        offset += n
    }

    /// Everything up to the end of the frame.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }

    /// A fixed-width NUL-padded UTF-8 field.
    public mutating func fixedString(_ width: Int, _ field: String) throws -> String {
        let raw = try bytes(width, field)
        return FixedString.decode(raw, width: width)
    }

    public mutating func restString() -> String { String(decoding: rest(), as: UTF8.self) }

    public mutating func publicKey(_ field: String = "public key") throws -> PublicKey {
        PublicKey(unchecked: try bytes(PublicKey.size, field))
    }

    public mutating func prefix6(_ field: String = "key prefix") throws -> KeyPrefix {
        KeyPrefix(unchecked: try bytes(6, field))
    }

    /// Fails when bytes remain after the last defined field.
    public func expectEnd(maxLength: Int? = nil) throws {
        if remaining > 0 {
            throw CodecError.overlong(frame: frame, expected: maxLength ?? offset, actual: bytes.count)
        }
    }

    func invalid(_ field: String, at fieldOffset: Int, _ reason: String) -> CodecError {
        .invalidField(frame: frame, field: field, offset: fieldOffset, reason: reason)
    }
}

/// Little-endian writer that builds one frame.
public struct ByteWriter {
    public private(set) var bytes: [UInt8]

    public init(code: UInt8, capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(code)
    }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func i8(_ v: Int8) { bytes.append(UInt8(bitPattern: v)) }
    public mutating func u16(_ v: UInt16) { bytes.append(UInt8(v & 0xFF)); bytes.append(UInt8(v >> 8)) }
    public mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    public mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(v & 0xFF)); bytes.append(UInt8((v >> 8) & 0xFF))
        bytes.append(UInt8((v >> 16) & 0xFF)); bytes.append(UInt8(v >> 24))
    }
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func u16be(_ v: UInt16) { bytes.append(UInt8(v >> 8)); bytes.append(UInt8(v & 0xFF)) }
    public mutating func append<C: Collection>(_ b: C) where C.Element == UInt8 { bytes.append(contentsOf: b) }
    public mutating func string(_ s: String) { bytes.append(contentsOf: Array(s.utf8)) }
    /// NUL-padded to exactly `width` bytes; the text is cut at a character boundary so
    /// that at least one NUL remains, as the firmware's `strzcpy` does.
    public mutating func fixedString(_ s: String, width: Int) {
        bytes.append(contentsOf: FixedString.encode(s, width: width))
    }
}

/// NUL-padded fixed-width UTF-8 strings (`str[N]` in Docs/protocol.md).
public enum FixedString {
    /// Reads up to the first NUL and at most `width - 1` bytes, as the firmware's `strzcpy`
    /// does; invalid UTF-8 is dropped, so a decoded name always re-encodes into its field.
    public static func decode<C: Collection>(_ raw: C, width: Int? = nil) -> String where C.Element == UInt8 {
        let limit = width.map { max(0, $0 - 1) } ?? Int.max
        let field = raw.prefix(while: { $0 != 0 }).prefix(limit)
        // Fast path: plain ASCII, the common case for names.
        if field.allSatisfy({ $0 < 0x80 }) { return String(decoding: field, as: UTF8.self) }
        var parser = Unicode.UTF8.ForwardParser()
        var it = field.makeIterator()
        var scalars = String.UnicodeScalarView()
        while true {
            switch parser.parseScalar(from: &it) {
            case let .valid(encoded): scalars.append(Unicode.UTF8.decode(encoded))
            case .error: continue
            case .emptyInput: return String(scalars)
            }
        }
    }

    public static func encode(_ s: String, width: Int) -> [UInt8] {
        var out = Array(truncatedUTF8(s, maxBytes: width - 1))
        out.append(contentsOf: repeatElement(0, count: width - out.count))
        return out
    }

    /// The longest prefix of `s` whose UTF-8 form fits in `maxBytes`, never splitting a character.
    public static func truncatedUTF8(_ s: String, maxBytes: Int) -> [UInt8] {
        let utf8 = Array(s.utf8)
        if utf8.count <= maxBytes { return utf8 }
        var cut = max(0, maxBytes)
        // Step back over continuation bytes (10xxxxxx) so no scalar is split.
        while cut > 0 && (utf8[cut] & 0xC0) == 0x80 { cut -= 1 }
        return Array(utf8[..<cut])
    }
}
