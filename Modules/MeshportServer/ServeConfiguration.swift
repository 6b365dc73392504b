import Foundation
import MeshServices
import MeshTransport
import MeshUplink

/// A host and port to listen on. Port 0 takes a free port (announced once listening).
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:8080".
    public init(parsing text: String) throws(ServeError) {
        let (host, portText): (Substring, Substring)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badAddress(text, reason: "expected [HOST]:PORT") }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .badAddress(text, reason: "expected HOST:PORT") }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .badAddress(text, reason: "no host") }
        guard let port = Int(portText), (0...65535).contains(port) else { throw .badAddress(text, reason: "port must be 0-65535") }
        self.init(host: String(host), port: port)
    }

    /// Only this machine can reach it: 127.0.0.0/8, ::1 or localhost.
    public var isLoopback: Bool { Self.isLoopback(host: host) }

    static func isLoopback(host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "::1" || h == "[::1]" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Everything `meshport serve` was asked for.
public struct ServeConfiguration: Sendable {
    public var radios: [RadioTarget]
    public var databasePath: String
    public var http: ListenAddress
    /// One companion re-export endpoint per radio, in the order of `radios` (fewer is fine).
    public var companions: [ListenAddress]
    /// Where the bearer token is kept (created with mode 0600 when missing). Required for a
    /// bind other than loopback; given with a loopback bind, the token is required there too.
    public var tokenFile: String?
    /// The web UI's files; nil: the ones built into the binary.
    public var webRoot: URL?
    /// Remembered remote-node passwords (login with remember), mode 0600.
    public var passwordFile: String?
    /// Origins besides the server's own that may send state-changing requests.
    public var allowedOrigins: Set<String>
    public var commandTimeout: Duration
    /// Events buffered per WebSocket client before it counts as too slow and is closed.
    public var eventBuffer: Int
    /// Largest request body accepted.
    public var maxBodyBytes: Int
    /// Between two samples of each radio's statistics into the store; nil: none.
    public var statsInterval: Duration?
    public var logLevel: String
    /// `--mqtt URL`: every radio's heard packets uplinked to each of these brokers (Docs/gateway.md).
    public var uplinks: [UplinkTarget] = []
    /// Where each uplink keeps its QoS 1 backlog while the broker is away; nil: in memory.
    public var uplinkFolder: String?
    /// `--history postgres://...`: the region history the /api/region routes read; nil: none.
    public var history: String?
    /// The maps' tiles; nil: the maps draw offline only.
    public var mapTiles: MapTiles? = .openStreetMap
    /// Leaflet's files, served under /vendor/leaflet/; nil: the maps draw offline only.
    public var leafletFolder: URL? = MapTiles.leafletFolder(MapTiles.debianLeaflet)

    public init(radios: [RadioTarget], databasePath: String, http: ListenAddress = ListenAddress(host: "127.0.0.1", port: 8080),
                companions: [ListenAddress] = [], tokenFile: String? = nil, webRoot: URL? = nil, passwordFile: String? = nil,
                allowedOrigins: Set<String> = [], commandTimeout: Duration = .seconds(5), eventBuffer: Int = 1024,
                maxBodyBytes: Int = 64 * 1024, statsInterval: Duration? = .seconds(300), logLevel: String = "notice") {
        self.radios = radios
        self.databasePath = databasePath
        self.http = http
        self.companions = companions
        self.tokenFile = tokenFile
        self.webRoot = webRoot
        self.passwordFile = passwordFile
        self.allowedOrigins = allowedOrigins
        self.commandTimeout = commandTimeout
        self.eventBuffer = eventBuffer
        self.maxBodyBytes = maxBodyBytes
        self.statsInterval = statsInterval
        self.logLevel = logLevel
    }
}

/// Why the server cannot start as asked.
public enum ServeError: Error, Hashable, Sendable, CustomStringConvertible {
    case badAddress(String, reason: String)
    case tokenRequired(ListenAddress)
    case tokenFile(String, reason: String)
    case noRadio
    case tooManyCompanions(Int, radios: Int)
    case webRoot(String, reason: String)
    case mapTiles(String, reason: String)
    case history(String)
    /// `$NOTIFY_SOCKET` names no socket serve can send to.
    case systemd(String)

    public var description: String {
        switch self {
        case let .badAddress(text, reason): "\"\(text)\" is not an address to listen on: \(reason)"
        case let .tokenRequired(address):
            "listening on \(address) lets other machines in: give --token-file PATH (a token is made there when missing), or listen on 127.0.0.1"
        case let .tokenFile(path, reason): "token file \(path): \(reason)"
        case .noRadio: "no radio to serve: give --radio URL (more than once for several radios)"
        case let .tooManyCompanions(n, radios): "\(n) --companion addresses for \(radios) radio(s): give at most one per radio, in the order of --radio"
        case let .webRoot(path, reason): "web root \(path): \(reason)"
        case let .mapTiles(template, reason): "map tiles \(template): \(reason)"
        case let .history(reason): "--history: \(reason)"
        case let .systemd(reason): reason
        }
    }
}
