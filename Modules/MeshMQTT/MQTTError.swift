/// What went wrong talking to a broker, each case a sentence that says what to fix. `broker`
/// is the broker URL without its password (`MQTTBrokerURL.description`).
public enum MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The broker URL does not parse: `reason` says what and where.
    case invalidURL(url: String, reason: String)
    /// CONNACK 4: the user name or password was refused.
    case badCredentials(broker: String, username: String?)
    /// CONNACK 5: the credentials are valid but this client may not connect.
    case notAuthorized(broker: String, username: String?)
    /// CONNACK 3: the broker is up but not taking clients.
    case serverUnavailable(broker: String)
    /// CONNACK 2: the broker refused the client id.
    case clientIDRejected(broker: String, clientID: String)
    /// CONNACK 1: the broker does not speak MQTT 3.1.1.
    case protocolRejected(broker: String)
    /// The TLS handshake failed (certificate, CA file, host name): `detail` is OpenSSL's reason.
    case tls(broker: String, detail: String)
    /// No MQTT connection could be made (refused, no route, timed out, WebSocket upgrade refused).
    case unreachable(broker: String, detail: String)
    /// An established connection broke (broker gone, network down, keep-alive missed).
    case connectionLost(broker: String, detail: String)
    /// The backlog folder cannot be read or written: `detail` says which file and why.
    case persistence(folder: String, detail: String)
    /// A topic or topic filter that MQTT does not allow.
    case invalidTopic(topic: String, reason: String)
    /// Paho refused a call: `operation` names it, `code` is Paho's return code.
    case library(operation: String, code: Int32)
    /// The client was closed; nothing more is sent or received.
    case closed

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "The MQTT broker URL \"\(url)\" is not valid: \(reason)."
        case .badCredentials(let broker, let username):
            "The broker \(broker) refused the user name or password\(Self.user(username)): fix the password in the MQTT URL (or renew the token)."
        case .notAuthorized(let broker, let username):
            "The broker \(broker) does not let \(username.map { "user \"\($0)\"" } ?? "anonymous clients") connect: check the user name and password in the MQTT URL (or renew the token), or ask the broker's operator for access."
        case .serverUnavailable(let broker):
            "The broker \(broker) is up but not accepting clients right now: it is retried; if it lasts, check the broker."
        case .clientIDRejected(let broker, let clientID):
            "The broker \(broker) refused the client id \"\(clientID)\": set another one with ?client-id= in the MQTT URL."
        case .protocolRejected(let broker):
            "The broker \(broker) does not accept MQTT 3.1.1: use a broker that speaks MQTT 3.1.1 or 5."
        case .tls(let broker, let detail):
            "The TLS handshake with \(broker) failed (\(detail)): check the broker's certificate, its host name, and the CA file given with ?ca= in the MQTT URL."
        case .unreachable(let broker, let detail):
            "The broker \(broker) cannot be reached (\(detail)): check the host, the port and the scheme in the MQTT URL, and that the broker is running."
        case .connectionLost(let broker, let detail):
            "The connection to the broker \(broker) was lost (\(detail)): it is reconnected automatically and queued messages follow."
        case .persistence(let folder, let detail):
            "The MQTT backlog folder \(folder) cannot be used (\(detail)): check that it exists, is writable and has free space."
        case .invalidTopic(let topic, let reason):
            "The MQTT topic \"\(topic)\" is not valid: \(reason)."
        case .library(let operation, let code):
            "The MQTT library refused to \(operation) (Paho return code \(code)): this is a bug in Meshport, please report it."
        case .closed:
            "The MQTT client is closed: create a new one to talk to the broker again."
        }
    }

    private static func user(_ username: String?) -> String {
        guard let username else { return "" }
        return " for user \"\(username)\""
    }
}
