import Foundation
import MeshServices
import Testing

/// /metrics of a real `meshport serve` on `meshport sim`: Prometheus text a scraper takes, the
/// radio's own figures labelled by radio and following the simulated radio, and the example
/// Grafana dashboard graphing only families the server writes.
@Suite(.timeLimit(.minutes(3))) struct MetricsTests {
    @Test func metricsAreValidPrometheusText() async throws {
        let world = try await ServerWorld()
        _ = try await world.get("/api/radios")
        let reply = try await world.get("/metrics")
        #expect(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let metrics = try PrometheusExposition(reply.text)
        #expect(metrics.value("meshport_radio_ready", ["radio": "0"]) == 1)
        #expect((metrics.value("meshport_http_requests_total", ["method": "GET", "status": "200"]) ?? 0) >= 1)
        #expect(metrics.types["meshport_http_request_duration_seconds"] == "histogram")
        #expect((metrics.value("meshport_http_request_duration_seconds_bucket", ["le": "+Inf"]) ?? 0) >= 1)
        #expect(metrics.value("meshport_radio_info", ["radio": "0", "state": "ready", "url": world.sims[0].address]) == 1)
        #expect(metrics.values("meshport_radio_info", ["radio": "0"]).count == 1, "one info series per radio")
        #expect(metrics.value("meshport_websocket_clients") == 0 && metrics.value("meshport_companion_clients") == 0)
        #expect(metrics.helps["meshport_radio_ready"] == "1 while the radio is connected and initialized.")
        let health = try await world.get("/healthz").object
        #expect(health["status"] as? String == "ok" && health["ready"] as? Int == 1, "\(health)")
    }

    @Test func radioFiguresFollowTheSimulatedRadio() async throws {
        // The radio's battery drains 5 mV and its noise floor rises 1 dB every 2 s of the sim's
        // clock for two minutes: whatever the machine's load, they change while the test reads.
        let steps = (1...60).map { #"{"at": \#($0 * 2), "readings": {"batteryMillivolts": \#(4000 - 5 * $0), "noiseFloor": \#(-130 + $0)}}"# }
        let scenario = #"{"extendsDefault": true, "radio": {"batteryMillivolts": 4000, "noiseFloor": -130}, "events": ["#
            + steps.joined(separator: ", ") + "]}"
        let world = try await ServerWorld(scenario: scenario, serveArguments: ["--stats-interval", "1"])
        let battery = "meshport_radio_battery_millivolts", noise = "meshport_radio_noise_floor_dbm", radio = ["radio": "0"]

        let first = try await world.metrics(until: "the radio's statistics are read") { $0.value(battery, radio) != nil && $0.value(noise, radio) != nil }
        let battery1 = try #require(first.value(battery, radio))
        let noise1 = try #require(first.value(noise, radio))
        #expect(battery1 <= 4000 && battery1 >= 3700 && battery1.truncatingRemainder(dividingBy: 5) == 0, "\(battery1)")
        #expect((-130 ... -70).contains(noise1), "\(noise1)")

        let pine = try await world.contactKey("Pine")
        let sent = try await world.send("POST", "/api/radios/0/contacts/\(pine)/messages", ["text": "are the figures in, Pine?"])
        #expect(sent.status == 202, "\(sent)")
        let later = try await world.metrics(until: "the radio's readings change, the DM is delivered and packets are heard") {
            $0.value(battery, radio) != battery1 && $0.value(noise, radio) != noise1
                && $0.value("meshport_radio_messages_delivered_total", radio) == 1 && $0.value("meshport_radio_messages_total", ["radio": "0", "direction": "in"]) ?? 0 >= 1
                && !$0.values("meshport_radio_packets_heard_total").isEmpty
                // The radio's counters come with its next statistics read after the send.
                && ($0.value("meshport_radio_packets_total", ["radio": "0", "direction": "tx"]) ?? 0) >= 1
        }
        #expect(try #require(later.value(battery, radio)) < battery1, "the battery drains")
        #expect(try #require(later.value(noise, radio)) > noise1, "the noise floor rises")

        // Each outgoing message counted once, whatever status events its heard repeats bring.
        #expect(later.value("meshport_radio_messages_total", ["radio": "0", "direction": "out"]) == 1)
        #expect(later.value("meshport_radio_delivery_failures_total", radio) == 0)
        #expect(later.value("meshport_radio_reconnects_total", radio) == 0)
        #expect(later.value("meshport_radio_pending_sends", radio) == 0)
        for direction in ["tx", "rx"] {
            #expect((later.value("meshport_radio_airtime_seconds_total", ["radio": "0", "direction": direction]) ?? -1) >= 0, "airtime \(direction)")
        }
        #expect((later.value("meshport_radio_packets_total", ["radio": "0", "direction": "tx"]) ?? 0) >= 1, "the DM went out")
        let read = try #require(later.value("meshport_radio_stats_timestamp_seconds", radio))
        #expect(abs(read - Date().timeIntervalSince1970) < 60, "statistics read at \(read)")
        for name in ["meshport_radio_last_rssi_dbm", "meshport_radio_last_snr_db", "meshport_radio_queue_length", "meshport_radio_uptime_seconds"] {
            #expect(later.value(name, radio) != nil, "\(name)")
        }
        // Packets heard, by the payload type names of `meshport packets --type`.
        let heard = later.samples.filter { $0.name == "meshport_radio_packets_heard_total" }
        let typeNames = Set(PacketJSON.typeNames.map(\.name))
        #expect(heard.allSatisfy { typeNames.contains($0.labels["type"] ?? "") && $0.value >= 1 }, "\(heard.map(\.labels))")
        // Every radio figure says which radio.
        for sample in later.samples where sample.name.hasPrefix("meshport_radio_") {
            #expect(sample.labels["radio"] == "0", "\(sample.name) \(sample.labels)")
        }
    }

    @Test func theDashboardGraphsFamiliesTheServerWrites() async throws {
        // An uplink to a broker nobody runs: its figures are there (not connected), and a
        // request from a rebound host name is refused so the rule counter has a series.
        let world = try await ServerWorld(serveArguments: ["--stats-interval", "1", "--mqtt", "mqtt://127.0.0.1:1?region=TST"])
        #expect(try await RawHTTP.request(port: world.port, "GET", "/api/radios", host: "attacker.example:\(world.port)").status == 403)
        let metrics = try await world.metrics(until: "the radio's statistics are read and a packet is heard") {
            $0.value("meshport_radio_battery_millivolts", ["radio": "0"]) != nil && !$0.values("meshport_radio_packets_heard_total").isEmpty
        }
        #expect(metrics.values("meshport_uplink_connected", ["radio": "0"]) == [0], "\(metrics.samples.filter { $0.name.hasPrefix("meshport_uplink_") })")

        let file = repositoryRoot.appendingPathComponent("Docs/grafana-meshport.json")
        let dashboard = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
        let expressions = Self.expressions(in: dashboard)
        #expect(expressions.count >= 10, "\(expressions)")
        let written = Set(metrics.samples.map(\.name))
        for expression in expressions {
            let names = expression.matches(of: #/meshport_[a-z_]+/#).map { String($0.output) }
            #expect(!names.isEmpty, "\(expression) graphs nothing of Meshport")
            for name in names { #expect(written.contains(name), "\(name) (in \(expression)) is not in /metrics") }
        }
    }

    /// Every `expr` of a Grafana dashboard (panels' targets and the template variables' queries).
    private static func expressions(in json: Any) -> [String] {
        switch json {
        case let object as [String: Any]:
            let own = ["expr", "query"].compactMap { object[$0] as? String }.filter { $0.contains("meshport_") }
            return own + object.values.flatMap { expressions(in: $0) }
        case let array as [Any]:
            return array.flatMap { expressions(in: $0) }
        default:
            return []
        }
    }
}

extension ServerWorld {
    /// /metrics, read again until `done` holds (60 s at most), parsed.
    func metrics(until what: String, _ done: (PrometheusExposition) -> Bool) async throws -> PrometheusExposition {
        let deadline = ContinuousClock.now + .seconds(60)
        var last: PrometheusExposition?
        while ContinuousClock.now < deadline {
            let metrics = try PrometheusExposition(try await get("/metrics").text)
            if done(metrics) { return metrics }
            last = metrics
            try await Task.sleep(for: .milliseconds(250))
        }
        throw TestFailure("/metrics did not show \(what) within 60 s: \(last?.samples.filter { $0.name.hasPrefix("meshport_radio_") } ?? [])")
    }
}
