import MeshMQTT
import MeshUplink
import Metrics

/// One gateway uplink's figures (`serve --mqtt`), labelled by radio and broker: what it queued,
/// what the broker took, what waits and what a full backlog dropped, and whether it is
/// connected. The uplink and its MQTT client keep the totals; each scrape reads them.
struct UplinkFigures: Sendable {
    private let queued: RunningTotal
    private let undecodable: RunningTotal
    private let publishFailures: RunningTotal
    private let delivered: RunningTotal
    private let dropped: RunningTotal
    private let backlog: Recorder
    private let connected: Recorder

    init(radio: String, broker: String, registry: MetricsRegistry) {
        let labels = [("broker", broker), ("radio", radio)]
        func total(_ name: String, _ help: String) -> RunningTotal {
            let total = RunningTotal(name, help, labels, registry: registry)
            total.read(0)
            return total
        }
        queued = total("meshport_uplink_packets_queued_total", "Heard packets handed to the MQTT client.")
        undecodable = total("meshport_uplink_packets_undecodable_total", "Heard packets that were not valid air packets (logged, not sent).")
        publishFailures = total("meshport_uplink_publish_failures_total", "Messages the MQTT client refused to queue.")
        delivered = total("meshport_uplink_delivered_total", "Messages the broker took.")
        dropped = total("meshport_uplink_dropped_total", "Oldest messages dropped because the backlog was full.")
        backlog = registry.gauge("meshport_uplink_backlog", "Messages waiting for the broker.", labels)
        connected = registry.gauge("meshport_uplink_connected", "1 while the uplink is connected to its broker.", labels)
        stopped()
    }

    /// What a running uplink reports now.
    func read(_ counters: UplinkCounters, backlog stats: MQTTBacklogStats?, connected isConnected: Bool) {
        queued.read(Int64(counters.packetsQueued))
        undecodable.read(Int64(counters.packetsUndecodable))
        publishFailures.read(Int64(counters.publishFailures))
        if let stats {
            delivered.read(Int64(stats.delivered))
            dropped.read(Int64(stats.dropped))
        }
        backlog.record(stats?.queued ?? 0)
        connected.record(isConnected ? 1 : 0)
    }

    /// No uplink runs for this target (yet, or any more).
    func stopped() {
        backlog.record(0)
        connected.record(0)
    }

    /// The uplink was made again (another radio answered): its totals start from zero.
    func restart() {
        for total in [queued, undecodable, publishFailures, delivered, dropped] { total.restart() }
    }
}
