import MeshMQTT

/// One `--mqtt URL` of a gateway (Docs/gateway.md): the broker (MeshMQTT's URL and options)
/// plus what the uplink itself reads from the query, `region=IATA` (required), `auth=none|
/// password|token`, `audience=HOST` (token mode; default the broker's host) and
/// `status-minutes=N` (how often the retained status is refreshed, default 5), and the home
/// automation topics `messages=on` and `commands=on` (UplinkTarget+HomeAutomation.swift).
public struct UplinkTarget: Sendable, Equatable, CustomStringConvertible {
    public enum Auth: String, Sendable, CaseIterable {
        /// No credentials (a private broker that allows anonymous clients).
        case none
        /// The user and password in the URL.
        case password
        /// The community's JWT, signed on the radio and renewed before it expires; the user
        /// name is `v1_{KEY}`.
        case token
    }

    public let broker: MQTTBrokerURL
    public let region: String
    public let auth: Auth
    public let audience: String
    public let statusInterval: Duration
    /// The radio's own messages on `meshport/{KEY}/messages` (off by default).
    public let messages: Bool
    /// Messages sent from `meshport/{KEY}/send` (off by default; never with token auth).
    public let commands: Bool

    /// The uplink's own query options; the rest are the broker's (`MQTTBrokerURL.options`).
    public static let options = ["region", "auth", "audience", "status-minutes", "messages", "commands"]

    public init(parsing text: String) throws {
        let (brokerText, own) = Self.split(text)
        broker = try MQTTBrokerURL(parsing: brokerText)
        let shown = broker.description
        guard let region = own["region"], !region.isEmpty else {
            throw UplinkError.badOption(url: shown, option: "region", reason: "missing: add ?region=IATA, the code of your region such as AMS")
        }
        self.region = region
        if let auth = own["auth"] {
            guard let mode = Auth(rawValue: auth) else {
                throw UplinkError.badOption(url: shown, option: "auth", reason: "\"\(auth)\" is not one of none, password, token")
            }
            self.auth = mode
        } else {
            auth = broker.username == nil ? .none : .password
        }
        if auth == .password, broker.username == nil {
            throw UplinkError.badOption(url: shown, option: "auth", reason: "password needs a user and password in the URL: mqtts://USER:PASSWORD@host")
        }
        if auth == .token, broker.username != nil || broker.password != nil {
            throw UplinkError.badOption(url: shown, option: "auth", reason: "token makes its own user and password: leave them out of the URL")
        }
        audience = own["audience"] ?? broker.host
        if let minutes = own["status-minutes"] {
            guard let value = Int(minutes), (1...1440).contains(value) else {
                throw UplinkError.badOption(url: shown, option: "status-minutes", reason: "\"\(minutes)\" is not a whole number of minutes from 1 to 1440")
            }
            statusInterval = .seconds(value * 60)
        } else {
            statusInterval = .seconds(300)
        }
        (messages, commands) = try Self.homeAutomation(own, auth: auth, url: shown)
    }

    public var description: String { broker.description }

    /// The URL without the uplink's options, and those options by name.
    static func split(_ text: String) -> (String, [String: String]) {
        guard let mark = text.firstIndex(of: "?") else { return (text, [:]) }
        var kept: [Substring] = []
        var own: [String: String] = [:]
        for item in text[text.index(after: mark)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if options.contains(name) {
                own[name] = parts.count == 2 ? String(parts[1]) : ""
            } else {
                kept.append(item)
            }
        }
        let base = String(text[..<mark])
        return (kept.isEmpty ? base : base + "?" + kept.joined(separator: "&"), own)
    }
}
