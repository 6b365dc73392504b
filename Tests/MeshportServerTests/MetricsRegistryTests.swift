import MeshServices
import Testing

@testable import MeshportServer

/// The registry's pieces in process: totals read from elsewhere, reconnects, and one registry
/// per server.
@Suite struct MetricsRegistryTests {
    @Test func aRunningTotalAddsWhatGrewAndTakesADropAsARestart() throws {
        let registry = MetricsRegistry()
        let total = RunningTotal("test_total", "A total read from elsewhere.", [("radio", "0")], registry: registry)
        #expect(try PrometheusExposition(registry.text).values("test_total").isEmpty, "no series before the first reading")
        for reading: Int64 in [10, 15, 15, 3, 4] { total.read(reading) }
        // 10, +5, +0, then the source restarted: +3, +1.
        #expect(try PrometheusExposition(registry.text).value("test_total", ["radio": "0"]) == 19)
        total.restart()
        total.read(2)
        #expect(try PrometheusExposition(registry.text).value("test_total", ["radio": "0"]) == 21)
    }

    @Test func onlyReadyAgainCountsAsAReconnect() throws {
        let registry = MetricsRegistry()
        var figures = RadioFigures(radio: "3", registry: registry)
        #expect(try PrometheusExposition(registry.text).value("meshport_radio_reconnects_total", ["radio": "3"]) == 0)
        for state in [.connecting, .initializing, .ready, .reconnecting, .initializing, .ready, .disconnected, .connecting] as [RadioSession.State] {
            figures.observe(.connection(state))
        }
        #expect(try PrometheusExposition(registry.text).value("meshport_radio_reconnects_total", ["radio": "3"]) == 1)
    }

    @Test func eachServerCountsOnlyItsOwn() throws {
        let one = ServerMetrics(), other = ServerMetrics()
        one.rejected("host")
        #expect(try PrometheusExposition(one.registry.text).value("meshport_requests_rejected_total", ["rule": "host"]) == 1)
        #expect(try PrometheusExposition(other.registry.text).values("meshport_requests_rejected_total").isEmpty)
    }
}
