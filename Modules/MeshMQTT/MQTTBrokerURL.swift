import Foundation

/// A broker named by URL (Docs/mqtt.md):
/// `mqtt[s]://[user[:password]@]host[:port][?options]` or
/// `ws[s]://[user[:password]@]host[:port][/path][?options]`.
/// Options: `qos=0|1` (default 1), `client-id=ID`, `ca=/path/to/ca.pem` (TLS schemes only),
/// `keepalive=SECONDS` (5-65535, default 60). User and password are percent-decoded.
public struct MQTTBrokerURL: Sendable, Equatable, CustomStringConvertible {
    public enum Scheme: String, Sendable, CaseIterable {
        case mqtt, mqtts, ws, wss

        public var usesTLS: Bool { self == .mqtts || self == .wss }
        public var usesWebSocket: Bool { self == .ws || self == .wss }
        public var defaultPort: UInt16 {
            switch self {
            case .mqtt: 1883
            case .mqtts: 8883
            case .ws: 80
            case .wss: 443
            }
        }
    }

    public var scheme: Scheme
    public var host: String
    public var port: UInt16
    /// The WebSocket path (`/mqtt` unless given); empty for `mqtt` and `mqtts`.
    public var path: String
    public var username: String?
    public var password: String?
    /// The QoS the caller publishes with (the client itself takes a QoS per message).
    public var qos: MQTTQoS
    public var clientID: String?
    /// PEM file of the CA that signed the broker's certificate; nil: the system's CAs.
    public var caFile: String?
    public var keepAliveSeconds: Int

    public static let options = ["qos", "client-id", "ca", "keepalive"]

    public init(parsing text: String) throws(MQTTError) {
        func fail(_ reason: String) -> MQTTError { .invalidURL(url: Self.redacted(text), reason: reason) }

        guard let schemeEnd = text.range(of: "://") else {
            throw fail("it has no scheme: start it with mqtt://, mqtts://, ws:// or wss://")
        }
        let schemeText = String(text[..<schemeEnd.lowerBound]).lowercased()
        guard let scheme = Scheme(rawValue: schemeText) else {
            throw fail("the scheme \"\(schemeText)\" is not one of mqtt, mqtts, ws, wss")
        }
        self.scheme = scheme

        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var authority = rest
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = rest[slash...]
        }

        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let user: Substring
            var password: Substring?
            if let colon = userInfo.firstIndex(of: ":") {
                user = userInfo[..<colon]
                password = userInfo[userInfo.index(after: colon)...]
            } else {
                user = userInfo
            }
            guard let decodedUser = String(user).removingPercentEncoding, !decodedUser.isEmpty else {
                throw fail("the user name before @ is empty or has a bad %-escape")
            }
            username = decodedUser
            if let password {
                guard let decoded = String(password).removingPercentEncoding else {
                    throw fail("the password has a bad %-escape")
                }
                self.password = decoded
            } else {
                self.password = nil
            }
        } else {
            username = nil
            password = nil
        }

        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw fail("the IPv6 address after [ has no closing ]") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected \"\(after)\" after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = String(hostPort)
        }
        if host.isEmpty { throw fail("the host name is missing") }
        if let portText {
            guard let port = UInt16(portText), port > 0 else {
                throw fail("the port \"\(portText)\" is not a number from 1 to 65535")
            }
            self.port = port
        } else {
            port = scheme.defaultPort
        }

        if scheme.usesWebSocket {
            self.path = path.isEmpty ? "/mqtt" : String(path)
        } else {
            guard path.isEmpty || path == "/" else {
                throw fail("a path (\"\(path)\") is only meaningful for ws:// and wss://")
            }
            self.path = ""
        }

        qos = .atLeastOnce
        clientID = nil
        caFile = nil
        keepAliveSeconds = 60
        var seen = Set<String>()
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding, !value.isEmpty else {
                throw fail("the option \"\(key)\" needs a value (\(key)=...)")
            }
            guard seen.insert(key).inserted else { throw fail("the option \"\(key)\" is given twice") }
            switch key {
            case "qos":
                guard let level = Int32(value), let qos = MQTTQoS(rawValue: level) else {
                    throw fail("qos=\(value) is not 0 or 1")
                }
                self.qos = qos
            case "client-id":
                guard value.utf8.count <= 65_535 else { throw fail("client-id is longer than 65535 bytes") }
                clientID = value
            case "ca":
                guard scheme.usesTLS else { throw fail("ca= needs a TLS scheme (mqtts:// or wss://)") }
                guard FileManager.default.isReadableFile(atPath: value) else {
                    throw fail("the CA file \(value) does not exist or cannot be read")
                }
                caFile = value
            case "keepalive":
                guard let seconds = Int(value), (5...65_535).contains(seconds) else {
                    throw fail("keepalive=\(value) is not a number of seconds from 5 to 65535")
                }
                keepAliveSeconds = seconds
            default:
                throw fail("the option \"\(key)\" is unknown; known options: \(Self.options.joined(separator: ", "))")
            }
        }
    }

    /// The URL without its password, for logs and errors.
    public var description: String {
        var text = "\(scheme.rawValue)://"
        if let username {
            text += username
            if password != nil { text += ":***" }
            text += "@"
        }
        return text + hostAndPort + path
    }

    var hostAndPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The server URI as Paho spells it.
    var pahoServerURI: String {
        switch scheme {
        case .mqtt: "tcp://\(hostAndPort)"
        case .mqtts: "ssl://\(hostAndPort)"
        case .ws: "ws://\(hostAndPort)\(path)"
        case .wss: "wss://\(hostAndPort)\(path)"
        }
    }

    /// `text` (any `scheme://user:password@...` URL) with the password between `:` and `@` hidden.
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
              let colon = rest[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
