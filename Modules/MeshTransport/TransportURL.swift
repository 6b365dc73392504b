import Foundation

/// A parsed, validated transport URL: `tcp://host[:5000]`, `serial:///dev/ttyACM0?baud=115200`,
/// `usb://VID:PID[?serial=...]`, `ble://ADDRESS[?pin=...&hci=...]`, or any scheme a plugin
/// claims. Parsing happens here and nowhere else; an error quotes the bad part.
public struct TransportURL: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    /// Host (tcp), device spec (usb `VID:PID`, ble address) or empty.
    public let host: String
    public let port: Int?
    /// Path (serial device); empty when absent.
    public let path: String
    /// Query parameters in order.
    public let query: [(name: String, value: String)]
    public let text: String

    public static func == (a: TransportURL, b: TransportURL) -> Bool { a.text == b.text }
    public func hash(into h: inout Hasher) { h.combine(text) }
    public var description: String { text }

    public func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }

    public init(_ text: String) throws {
        self.text = text
        guard let sep = text.range(of: "://") else {
            throw TransportError.invalidURL(text, part: text, reason: "expected scheme://..., e.g. tcp://192.168.1.20:5000 or serial:///dev/ttyACM0")
        }
        let scheme = String(text[..<sep.lowerBound])
        guard let first = scheme.first, first.isLetter, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else {
            throw TransportError.invalidURL(text, part: scheme, reason: "not a URL scheme")
        }
        self.scheme = scheme.lowercased()
        var rest = Substring(text[sep.upperBound...])
        var query: [(String, String)] = []
        if let q = rest.firstIndex(of: "?") {
            for item in rest[rest.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true) {
                let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, !kv[0].isEmpty else {
                    throw TransportError.invalidURL(text, part: String(item), reason: "query parameters are name=value")
                }
                query.append((String(kv[0]), Self.percentDecoded(String(kv[1]))))
            }
            rest = rest[..<q]
        }
        self.query = query
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        path = String(rest[slash...])
        // Host and optional port; usb/ble authorities contain colons of their own.
        if ["tcp"].contains(self.scheme) || authority.hasPrefix("[") {
            (host, port) = try Self.hostAndPort(authority, in: text)
        } else {
            host = String(authority)
            port = nil
        }
    }

    private static func hostAndPort(_ authority: Substring, in text: String) throws -> (String, Int?) {
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw TransportError.invalidURL(text, part: String(authority), reason: "unclosed IPv6 bracket") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty {
                throw TransportError.invalidURL(text, part: String(after), reason: "unexpected text after the address")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        var port: Int?
        if let portPart {
            guard let p = Int(portPart), (1...65535).contains(p) else {
                throw TransportError.invalidURL(text, part: String(portPart), reason: "port must be 1-65535")
            }
            port = p
        }
        return (String(hostPart), port)
    }

    private static func percentDecoded(_ s: String) -> String {
        guard s.contains("%") || s.contains("+") else { return s }
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

extension TransportURL {
    /// Checks the parts the built-in schemes need; other schemes are left to their driver.
    public func validate() throws {
        switch scheme {
        case "tcp":
            guard !host.isEmpty else { throw TransportError.invalidURL(text, part: text, reason: "tcp needs a host: tcp://HOST[:5000]") }
            try allowParameters(["timeout"])
        case "serial":
            guard path.hasPrefix("/") else { throw TransportError.invalidURL(text, part: text, reason: "serial needs a device path: serial:///dev/ttyACM0") }
            guard host.isEmpty else { throw TransportError.invalidURL(text, part: host, reason: "serial URLs have no host; use three slashes: serial:///dev/...") }
            try allowParameters(["baud", "dtr", "rts"])
            if let baud = parameter("baud") {
                guard let b = Int(baud), b > 0 else { throw TransportError.invalidURL(text, part: baud, reason: "baud must be a positive number") }
            }
            for line in ["dtr", "rts"] {
                if let v = parameter(line), !["on", "off", "1", "0"].contains(v) {
                    throw TransportError.invalidURL(text, part: v, reason: "\(line) is on or off")
                }
            }
        case "ble":
            try validateBLE()
        default:
            break
        }
    }

    /// `ble://ADDRESS[?pin=123456&hci=hci0&type=random|public&timeout=SECONDS&write=request|command]`.
    private func validateBLE() throws {
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
            throw TransportError.invalidURL(text, part: host.isEmpty ? text : host, reason: "ble needs the radio's address: ble://F0:00:00:00:00:01 (meshport scan lists them)")
        }
        try allowParameters(["pin", "hci", "type", "timeout", "write"])
        if let pin = parameter("pin"), pin.count != 6 || !pin.allSatisfy(\.isASCII) || Int(pin) == nil {
            throw TransportError.invalidURL(text, part: pin, reason: "pin is the radio's 6-digit PIN (default 123456)")
        }
        if let type = parameter("type"), !["public", "random"].contains(type) {
            throw TransportError.invalidURL(text, part: type, reason: "type is public or random")
        }
        if let write = parameter("write"), !["request", "command"].contains(write) {
            throw TransportError.invalidURL(text, part: write, reason: "write is request (acknowledged) or command (without response)")
        }
        if let t = parameter("timeout"), (Double(t) ?? 0) <= 0 {
            throw TransportError.invalidURL(text, part: t, reason: "timeout is a number of seconds")
        }
    }

    private func allowParameters(_ names: Set<String>) throws {
        for (name, _) in query where !names.contains(name) {
            throw TransportError.invalidURL(text, part: name, reason: "unknown parameter for \(scheme); known: \(names.sorted().joined(separator: ", "))")
        }
    }
}
