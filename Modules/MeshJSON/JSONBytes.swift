/// JSON written straight into bytes, where JSONEncoder's cost counts: the server's busiest
/// answers (a conversation's timeline page, the Region view's map of up to 5,000 nodes;
/// Docs/server.md and Docs/scale-out.md, "Sizing") and the uplink's packet message, one for
/// every heard packet (MeshGateway's JSONObjectWriter). It writes the text JSONEncoder writes
/// for the same values with sorted keys and slashes unescaped; the caller writes the keys in
/// that order, and MessagePageJSONTests, RegionNodesJSONTests and the uplink's golden tests
/// compare the two.
public struct JSONBytes {
    // Inlinable, as JSONEncoder is not: a page is a thousand calls, and `integer` must be
    // specialised for the caller's integer types, not run generic across the module boundary.
    @usableFromInline var storage: [UInt8] = []

    public var bytes: [UInt8] { storage }

    @inlinable
    public init(capacity: Int) { storage.reserveCapacity(capacity) }

    /// Punctuation and keys, as written: `{"key":`.
    @inlinable
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { storage.append(contentsOf: $0) }
    }

    @inlinable
    public mutating func string(_ text: String) {
        storage.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            // Keys, names and times rarely hold a character to escape: copied whole.
            if utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                escaped(utf8)
            } else {
                storage.append(contentsOf: utf8)
            }
        }
        storage.append(0x22)
    }

    @inlinable
    mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        for byte in utf8 {
            switch byte {
            case 0x22: storage += [0x5C, 0x22]
            case 0x5C: storage += [0x5C, 0x5C]
            case 0x0A: storage += [0x5C, 0x6E]
            case 0x0D: storage += [0x5C, 0x72]
            case 0x09: storage += [0x5C, 0x74]
            case 0x08: storage += [0x5C, 0x62]
            case 0x0C: storage += [0x5C, 0x66]
            case 0..<0x20: storage += [0x5C, 0x75, 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]]
            default: storage.append(byte)
            }
        }
    }

    /// Digits written in place, with no string made for each of a timeline page's 200 integers.
    @inlinable
    public mutating func integer(_ value: some BinaryInteger) {
        guard let value = Int64(exactly: value) else {
            storage.append(contentsOf: String(value).utf8)
            return
        }
        if value < 0 { storage.append(0x2D) }
        var rest = value.magnitude
        var count = 1
        var probe = rest
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        storage.append(contentsOf: repeatElement(0x30, count: count))
        var index = storage.count - 1
        while rest >= 10 {
            storage[index] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
        storage[index] = 0x30 + UInt8(truncatingIfNeeded: rest)
    }

    /// `key` (as written, e.g. `,"name":`) and `value`, or nothing when `value` is absent, as
    /// JSONEncoder leaves out a nil.
    @inlinable
    public mutating func optional(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }

    @inlinable
    public mutating func optional(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        raw(key)
        integer(value)
    }

    /// A finite number as JSONEncoder writes it: the shortest text that reads back the same,
    /// without a trailing ".0". Returns false, writing nothing, for NaN and the infinities, which
    /// JSONEncoder refuses.
    @inlinable
    public mutating func number(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        storage.append(contentsOf: text.utf8)
        return true
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
