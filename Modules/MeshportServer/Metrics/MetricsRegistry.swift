import Metrics
import Prometheus
import Synchronization

/// The swift-metrics types on one Prometheus registry, with each family's HELP text.
///
/// Every server makes its own registry and passes it down instead of calling
/// `MetricsSystem.bootstrap`: a bootstrap is once per process, and a process that runs
/// several servers (the tests do) would count every server's requests in each one's
/// /metrics. Nothing here reads `MetricsSystem.factory`.
struct MetricsRegistry: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
    }

    /// The Prometheus text exposition format (version 0.0.4).
    var text: String { registry.emitToString() }

    /// A counter of `name` with these labels: the same series each time it is asked for.
    func counter(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: name, dimensions: labels, handler: registry.makeCounter(descriptor: Self.descriptor(name, help), labels: labels),
                            factory: factory)
    }

    /// A gauge set to each value recorded (a swift-metrics `Recorder` that does not aggregate).
    func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Recorder {
        Recorder(label: name, dimensions: labels, aggregate: false,
                 handler: registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels), factory: factory)
    }

    /// A gauge counted up and down.
    func meter(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Meter {
        Meter(label: name, dimensions: labels, handler: registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels), factory: factory)
    }

    /// A histogram of durations, in seconds.
    func timer(_ name: String, _ help: String, buckets: [Duration]) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: name, dimensions: [],
                          handler: registry.makeDurationHistogram(descriptor: Self.descriptor(name, help), buckets: buckets), factory: factory)
    }

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

/// A total kept elsewhere (the radio's airtime, an uplink's MQTT client) as a counter: each
/// reading adds what grew since the last. A total that went down started again (the radio
/// rebooted), so all of it is new; `restart()` says so when the source is known to be new.
/// The series appears with the first reading: before it, the total is not known.
final class RunningTotal: Sendable {
    private let make: @Sendable () -> CoreMetrics.Counter
    private let state = Mutex<(counter: CoreMetrics.Counter?, last: Int64?)>((nil, nil))

    init(_ name: String, _ help: String, _ labels: [(String, String)], registry: MetricsRegistry) {
        make = { registry.counter(name, help, labels) }
    }

    func read(_ total: Int64) {
        let (counter, grown) = state.withLock { state -> (CoreMetrics.Counter, Int64) in
            let counter = state.counter ?? make()
            let grown = state.last.map { total >= $0 ? total - $0 : total } ?? total
            state = (counter, total)
            return (counter, grown)
        }
        if grown > 0 { counter.increment(by: grown) }
    }

    func restart() { state.withLock { $0.last = 0 } }
}
