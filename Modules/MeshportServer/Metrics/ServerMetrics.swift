import Foundation
import Metrics
import Synchronization

/// What the server counts for /metrics (Docs/server.md lists every family). Labels stay few
/// (method, status, event type, radio), so the number of series is bounded whatever clients send.
final class ServerMetrics: Sendable {
    let registry = MetricsRegistry()
    private let started = Date()
    private let uptime: Recorder
    private let webSocketClients: Recorder
    private let droppedClients: RunningTotal
    private let companionClients: Meter
    private let requestDuration: CoreMetrics.Timer
    /// Each radio's `meshport_radio_info` series: its state is a label, so a new state is a new
    /// series and the old one goes.
    private let radioInfo = Mutex<[String: (state: String, gauge: Recorder)]>([:])

    init() {
        uptime = registry.gauge("meshport_uptime_seconds", "Seconds since the server started.")
        webSocketClients = registry.gauge("meshport_websocket_clients", "WebSocket clients subscribed to /api/events.")
        droppedClients = RunningTotal("meshport_websocket_clients_dropped_total", "WebSocket clients closed for falling a whole buffer of events behind.",
                                      [], registry: registry)
        droppedClients.read(0)
        companionClients = registry.meter("meshport_companion_clients", "Clients connected to the companion re-export.")
        companionClients.set(0)
        requestDuration = registry.timer("meshport_http_request_duration_seconds", "Time from a request's arrival to its answer's head.",
                                         buckets: [.milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(250), .seconds(1),
                                                   .milliseconds(2500), .seconds(10)])
    }

    func request(method: String, status: Int, took duration: Duration) {
        // Only methods a client may send are labels; anything else is counted as OTHER.
        let known: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        registry.counter("meshport_http_requests_total", "HTTP requests answered, by method and status.",
                         [("method", known.contains(method) ? method : "OTHER"), ("status", String(status))]).increment()
        requestDuration.record(duration: duration)
    }

    func eventPublished(_ type: String) {
        registry.counter("meshport_events_published_total", "Events sent to WebSocket clients, by type.", [("type", type)]).increment()
    }

    /// A request refused by a security rule: "token", "origin", "host", "body_size", "path", "malformed".
    func rejected(_ rule: String) {
        registry.counter("meshport_requests_rejected_total", "Requests refused by a security rule.", [("rule", rule)]).increment()
    }

    func companionFrame(_ direction: String) {
        registry.counter("meshport_companion_frames_total", "Companion frames relayed, by direction.", [("direction", direction)]).increment()
    }

    func companionClient(connected: Bool) {
        if connected { companionClients.increment() } else { companionClients.decrement() }
    }

    /// The figures of radio `id` (labelled `radio`), for its `ServedRadio`.
    func radio(_ id: String) -> RadioFigures { RadioFigures(radio: id, registry: registry) }

    /// Sets what is read at scrape time, then renders every family.
    func render(radios: [RadioSummary], webSocketClients clients: Int, droppedClients dropped: Int) -> String {
        uptime.record(Date().timeIntervalSince(started))
        webSocketClients.record(clients)
        droppedClients.read(Int64(dropped))
        for r in radios {
            registry.gauge("meshport_radio_ready", "1 while the radio is connected and initialized.", [("radio", r.id)]).record(r.state == .ready ? 1 : 0)
            info(r)
        }
        return registry.text
    }

    private func info(_ r: RadioSummary) {
        let state = "\(r.state)"
        radioInfo.withLock { shown in
            if let old = shown[r.id] {
                guard old.state != state else { return }
                old.gauge.destroy()
            }
            let gauge = registry.gauge("meshport_radio_info", "Each radio's URL and state.", [("radio", r.id), ("state", state), ("url", r.url)])
            gauge.record(1)
            shown[r.id] = (state, gauge)
        }
    }
}
