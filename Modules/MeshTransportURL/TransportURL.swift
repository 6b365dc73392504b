/// A transport URL split into its generic parts: `scheme://authority/path?name=value&...`.
/// Which parts a scheme needs, and what they may hold, is its driver's business (each driver
/// checks its own URLs: Docs/plugin-authoring.md); this parser knows no scheme. Errors quote
/// the bad part.
public struct TransportURL: Hashable, Sendable, CustomStringConvertible {
    /// Lowercased.
    public let scheme: String
    /// Between `://` and the first `/` or `?`: a host and port, a device spec (usb `VID:PID`,
    /// a ble address), or empty.
    public let authority: String
    /// From the first `/` after the authority (a serial device); empty when absent.
    public let path: String
    /// Query parameters in order, values percent-decoded.
    public let query: [(name: String, value: String)]
    public let text: String

    public static func == (a: TransportURL, b: TransportURL) -> Bool { a.text == b.text }
    public func hash(into h: inout Hasher) { h.combine(text) }
    public var description: String { text }

    public func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }

    public init(_ text: String) throws(TransportURLError) {
        self.text = text
        guard let sep = Self.schemeSeparator(in: text) else {
            throw TransportURLError(text, part: text, reason: "expected scheme://..., e.g. tcp://192.168.1.20:5000 or serial:///dev/ttyACM0")
        }
        let scheme = String(text[..<sep])
        guard let first = scheme.first, first.isLetter, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else {
            throw TransportURLError(text, part: scheme, reason: "not a URL scheme")
        }
        self.scheme = scheme.lowercased()
        var rest = text[text.index(sep, offsetBy: 3)...]
        var query: [(String, String)] = []
        if let q = rest.firstIndex(of: "?") {
            for item in rest[rest.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true) {
                let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, !kv[0].isEmpty else {
                    throw TransportURLError(text, part: String(item), reason: "query parameters are name=value")
                }
                query.append((String(kv[0]), Self.percentDecoded(kv[1])))
            }
            rest = rest[..<q]
        }
        self.query = query
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        authority = String(rest[..<slash])
        path = String(rest[slash...])
    }

    /// Where `://` starts, if anywhere.
    private static func schemeSeparator(in text: String) -> String.Index? {
        var i = text.startIndex
        while i < text.endIndex {
            if text[i...].hasPrefix("://") { return i }
            i = text.index(after: i)
        }
        return nil
    }

    private static func percentDecoded(_ s: Substring) -> String {
        guard s.contains("%") || s.contains("+") else { return String(s) }
        var out: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "%"), i + 2 < u.count, let v = UInt8(String(decoding: u[i + 1...i + 2], as: UTF8.self), radix: 16) {
                out.append(v)
                i += 3
            } else {
                out.append(u[i] == UInt8(ascii: "+") ? UInt8(ascii: " ") : u[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
