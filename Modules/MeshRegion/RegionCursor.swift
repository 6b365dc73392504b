import Foundation

/// Where a page ended: the last row's time and its tie-breaker (a key, an id or a packet hash).
/// Its text form (`encoded`) is what the API hands out as `older` and takes back as `before`.
public struct RegionCursor: Sendable, Equatable {
    public var time: Date
    public var key: [UInt8]?
    public var id: Int64?
    public var hash: String?

    public init(time: Date, key: [UInt8]? = nil, id: Int64? = nil, hash: String? = nil) {
        self.time = time
        self.key = key
        self.id = id
        self.hash = hash
    }

    /// A cursor text that did not come from `encoded`.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let text: String
        public var description: String { "\"\(text)\" is not a page cursor: pass the `older` value of the previous page" }
    }

    /// Microseconds since 1970, a dot, then `k` and a key in hex, `i` and an id, or `h` and a hash.
    public var encoded: String {
        let micros = Int64((time.timeIntervalSince1970 * 1_000_000).rounded())
        if let key { return "\(micros).k" + key.map { String(format: "%02x", $0) }.joined() }
        if let id { return "\(micros).i\(id)" }
        return "\(micros).h\(hash ?? "")"
    }

    public init(encoded text: String) throws(Invalid) {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let micros = Int64(parts[0]), let kind = parts[1].first else { throw Invalid(text: text) }
        let value = parts[1].dropFirst()
        self.init(time: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
        switch kind {
        case "k":
            guard value.count == 64, let bytes = Self.bytes(hex: value) else { throw Invalid(text: text) }
            key = bytes
        case "i":
            guard let number = Int64(value) else { throw Invalid(text: text) }
            id = number
        case "h":
            guard value.count <= 16, value.allSatisfy(\.isHexDigit) else { throw Invalid(text: text) }
            hash = String(value)
        default:
            throw Invalid(text: text)
        }
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        return out
    }
}
