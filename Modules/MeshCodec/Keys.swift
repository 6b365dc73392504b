/// A node's 32-byte Ed25519 public key.
public struct PublicKey: Hashable, Sendable, CustomStringConvertible {
    public static let size = 32
    public let bytes: [UInt8]

    public init?(_ bytes: [UInt8]) {
        guard bytes.count == Self.size else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hex digits; nil for any other input.
    public init?(hex: String) {
        guard let b = Hex.decode(hex), b.count == Self.size else { return nil }
        bytes = b
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    public func prefix(_ n: Int = 6) -> KeyPrefix { KeyPrefix(unchecked: Array(bytes.prefix(n))) }
    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }
}

/// The first 1 to 32 bytes of a public key, as carried by message frames (6 bytes),
/// login/status matching (4) and path hashes.
public struct KeyPrefix: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(_ bytes: [UInt8]) {
        guard (1...PublicKey.size).contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    public func matches(_ key: PublicKey) -> Bool { key.bytes.starts(with: bytes) }
    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }
}

public enum Hex {
    /// Lower-case hex digits. Keys are encoded thousands of times per region page, so contiguous
    /// bytes (arrays, slices) go straight into the string's storage.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable(encodeContiguous) { return text }
        return Array(bytes).withUnsafeBufferPointer(encodeContiguous)
    }

    private static func encodeContiguous(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var i = 0
            for b in bytes {
                out[i] = digit(b >> 4)
                out[i + 1] = digit(b & 0x0F)
                i += 2
            }
            return i
        }
    }

    private static func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }

    /// Decodes hex digits (either case, no separators); nil on odd length or a non-hex digit.
    public static func decode(_ s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
