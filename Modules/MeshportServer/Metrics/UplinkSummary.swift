import MeshMQTT
import MeshUplink

/// One uplink as /metrics reports it.
struct UplinkSummary: Sendable {
    let radio: String
    let broker: String
    let counters: UplinkCounters
    let backlog: MQTTBacklogStats?
}
