import Foundation
import Synchronization

/// Counters the server keeps for /metrics. Labels stay few (method, status, event type), so
/// the number of series is bounded whatever clients send.
final class ServerMetrics: Sendable {
    private struct State {
        var requests: [RequestKey: Int] = [:]
        var events: [String: Int] = [:]
        var companionFrames: [String: Int] = [:]
        var companionClients = 0
        var rejected: [String: Int] = [:]
    }

    struct RequestKey: Hashable {
        let method: String
        let status: Int
    }

    private let state = Mutex(State())
    let started = Date()

    func request(method: String, status: Int) {
        // Only methods a client may send are labels; anything else is counted as OTHER.
        let known: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        let key = RequestKey(method: known.contains(method) ? method : "OTHER", status: status)
        state.withLock { $0.requests[key, default: 0] += 1 }
    }

    func eventPublished(_ type: String) { state.withLock { $0.events[type, default: 0] += 1 } }
    /// A request refused by a security rule: "token", "origin", "host", "body_size", "path".
    func rejected(_ rule: String) { state.withLock { $0.rejected[rule, default: 0] += 1 } }
    func companionFrame(_ direction: String) { state.withLock { $0.companionFrames[direction, default: 0] += 1 } }
    func companionClient(connected: Bool) { state.withLock { $0.companionClients += connected ? 1 : -1 } }

    /// The Prometheus text exposition format (version 0.0.4).
    func render(radios: [RadioSummary], uplinks: [UplinkSummary] = [], webSocketClients: Int, droppedClients: Int) -> String {
        let s = state.withLock { $0 }
        var out = PrometheusText()
        out.family("meshport_uptime_seconds", "gauge", "Seconds since the server started.")
        out.sample("meshport_uptime_seconds", [:], Date().timeIntervalSince(started))
        out.family("meshport_http_requests_total", "counter", "HTTP requests answered, by method and status.")
        for (key, n) in s.requests.sorted(by: { ($0.key.method, $0.key.status) < ($1.key.method, $1.key.status) }) {
            out.sample("meshport_http_requests_total", ["method": key.method, "status": String(key.status)], Double(n))
        }
        out.family("meshport_requests_rejected_total", "counter", "Requests refused by a security rule.")
        for (rule, n) in s.rejected.sorted(by: { $0.key < $1.key }) { out.sample("meshport_requests_rejected_total", ["rule": rule], Double(n)) }
        out.family("meshport_radio_ready", "gauge", "1 while the radio is connected and initialized.")
        for r in radios { out.sample("meshport_radio_ready", ["radio": r.id], r.state == .ready ? 1 : 0) }
        out.family("meshport_radio_info", "gauge", "Each radio's URL and state.")
        for r in radios { out.sample("meshport_radio_info", ["radio": r.id, "url": r.url, "state": "\(r.state)"], 1) }
        out.family("meshport_events_published_total", "counter", "Events sent to WebSocket clients, by type.")
        for (type, n) in s.events.sorted(by: { $0.key < $1.key }) { out.sample("meshport_events_published_total", ["type": type], Double(n)) }
        out.family("meshport_websocket_clients", "gauge", "WebSocket clients subscribed to /api/events.")
        out.sample("meshport_websocket_clients", [:], Double(webSocketClients))
        out.family("meshport_websocket_clients_dropped_total", "counter", "WebSocket clients closed for falling a whole buffer of events behind.")
        out.sample("meshport_websocket_clients_dropped_total", [:], Double(droppedClients))
        out.family("meshport_companion_clients", "gauge", "Clients connected to the companion re-export.")
        out.sample("meshport_companion_clients", [:], Double(s.companionClients))
        out.family("meshport_companion_frames_total", "counter", "Companion frames relayed, by direction.")
        for (direction, n) in s.companionFrames.sorted(by: { $0.key < $1.key }) {
            out.sample("meshport_companion_frames_total", ["direction": direction], Double(n))
        }
        renderUplinks(uplinks, into: &out)
        return out.text
    }
}

/// Writes families and samples in the text format: HELP and TYPE once per family, label
/// values escaped (backslash, quote, newline).
struct PrometheusText {
    private(set) var text = ""

    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
        let rendered = labels.isEmpty ? "" : "{" + labels.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\"\(Self.escape($0.value))\"" }.joined(separator: ",") + "}"
        let number = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        text += "\(name)\(rendered) \(number)\n"
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for ch in value {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension ServerMetrics {
    /// The gateway's uplinks (`serve --mqtt`): what each queued, what waits for the broker,
    /// what was dropped from a full backlog.
    private func renderUplinks(_ uplinks: [UplinkSummary], into out: inout PrometheusText) {
        guard !uplinks.isEmpty else { return }
        let families: [(String, String, String, (UplinkSummary) -> Double?)] = [
            ("meshport_uplink_packets_queued_total", "counter", "Heard packets handed to the MQTT client.", { Double($0.counters.packetsQueued) }),
            ("meshport_uplink_packets_undecodable_total", "counter", "Heard packets that were not valid air packets (logged, not sent).",
             { Double($0.counters.packetsUndecodable) }),
            ("meshport_uplink_delivered_total", "counter", "Messages the broker took.", { $0.backlog.map { Double($0.delivered) } }),
            ("meshport_uplink_backlog", "gauge", "Messages waiting for the broker.", { $0.backlog.map { Double($0.queued) } }),
            ("meshport_uplink_dropped_total", "counter", "Oldest messages dropped because the backlog was full.", { $0.backlog.map { Double($0.dropped) } }),
        ]
        for (name, type, help, value) in families {
            out.family(name, type, help)
            for u in uplinks {
                if let v = value(u) { out.sample(name, ["radio": u.radio, "broker": u.broker], v) }
            }
        }
    }
}
