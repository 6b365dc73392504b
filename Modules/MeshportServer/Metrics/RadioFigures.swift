import Foundation
import MeshServices
import MeshStore
import Metrics

/// One radio's figures, labelled `radio`, for the gateway operator's graphs. They come from
/// what the server already receives, so /metrics costs the radio no extra traffic: the events
/// (packets heard, messages, connection changes) and the statistics the server samples every
/// `--stats-interval` (battery, noise floor, airtime, ...). Owned by the radio's `ServedRadio`.
struct RadioFigures: Sendable {
    private let registry: MetricsRegistry
    private let labels: [(String, String)]
    private let airtimeTX: RunningTotal
    private let airtimeRX: RunningTotal
    private let packetsRX: RunningTotal
    private let packetsTX: RunningTotal
    private let receiveErrors: RunningTotal
    private var outgoing = OutgoingTally()
    private var wasReady = false

    init(radio: String, registry: MetricsRegistry) {
        self.registry = registry
        labels = [("radio", radio)]
        let airtime = "Seconds the radio spent transmitting (tx) and receiving (rx), from its statistics."
        airtimeTX = RunningTotal("meshport_radio_airtime_seconds_total", airtime, labels + [("direction", "tx")], registry: registry)
        airtimeRX = RunningTotal("meshport_radio_airtime_seconds_total", airtime, labels + [("direction", "rx")], registry: registry)
        let packets = "Packets the radio received (rx) and sent (tx), from its statistics."
        packetsRX = RunningTotal("meshport_radio_packets_total", packets, labels + [("direction", "rx")], registry: registry)
        packetsTX = RunningTotal("meshport_radio_packets_total", packets, labels + [("direction", "tx")], registry: registry)
        receiveErrors = RunningTotal("meshport_radio_receive_errors_total", "Packets the radio could not receive, from its statistics.", labels,
                                     registry: registry)
        // Counted from zero: a rate over them is known from the start, not from the first event.
        for (name, help) in [Self.reconnects, Self.delivered, Self.failures] { _ = registry.counter(name, help, labels) }
        for direction in ["in", "out"] { _ = registry.counter(Self.messages.name, Self.messages.help, labels + [("direction", direction)]) }
    }

    private static let reconnects = (name: "meshport_radio_reconnects_total", help: "Times the radio was ready again after its link was lost.")
    private static let messages = (name: "meshport_radio_messages_total", help: "Messages received (in) and sent (out): direct, channel and room posts.")
    private static let delivered = (name: "meshport_radio_messages_delivered_total", help: "Sent direct messages the recipient acknowledged.")
    private static let failures = (name: "meshport_radio_delivery_failures_total", help: "Sent messages that failed: no acknowledgement after every attempt, or refused.")

    /// One of the radio's events, as `ServedRadio` passes it on.
    mutating func observe(_ event: ClientEvent) {
        switch event {
        case .connection(.ready):
            if wasReady { count(Self.reconnects) }
            wasReady = true
        case let .packetHeard(heard):
            count((name: "meshport_radio_packets_heard_total", help: "Packets the radio heard on air (the packet log), by payload type."),
                  [("type", PacketJSON.name(of: heard.packet.payloadType))])
            signal(rssi: Double(heard.rssi), snr: Double(heard.snrX4) / 4)
        case .messageReceived:
            count(Self.messages, [("direction", "in")])
        case let .messageStatus(message):
            guard message.direction == .outgoing else { return }
            let (first, moved) = outgoing.move(message)
            if first { count(Self.messages, [("direction", "out")]) }
            switch moved {
            case .delivered?: count(Self.delivered)
            case .failed?: count(Self.failures)
            default: break
            }
        default:
            break
        }
    }

    /// The statistics the server sampled (GET_STATS and the battery).
    func read(_ stats: LocalStats, at time: Date) {
        gauge("meshport_radio_battery_millivolts", "The radio's battery voltage, millivolts.", stats.battery.millivolts)
        gauge("meshport_radio_uptime_seconds", "Seconds since the radio started, as it reports.", stats.core.uptimeSeconds)
        gauge("meshport_radio_queue_length", "Packets waiting in the radio's transmit queue.", stats.core.queueLength)
        gauge("meshport_radio_noise_floor_dbm", "The radio's noise floor, dBm.", stats.radio.noiseFloor)
        signal(rssi: Double(stats.radio.lastRSSI), snr: stats.radio.lastSNR)
        airtimeTX.read(Int64(stats.radio.txAirtimeSeconds))
        airtimeRX.read(Int64(stats.radio.rxAirtimeSeconds))
        packetsRX.read(Int64(stats.packets.received))
        packetsTX.read(Int64(stats.packets.sent))
        if let errors = stats.packets.receiveErrors { receiveErrors.read(Int64(errors)) }
        registry.gauge("meshport_radio_stats_timestamp_seconds", "When the radio's statistics were last read, Unix time.", labels)
            .record(time.timeIntervalSince1970)
    }

    /// Messages sent and not settled yet (`Messenger.pendingSends`), read at each scrape.
    func pendingSends(_ count: Int) {
        gauge("meshport_radio_pending_sends", "Messages sent and not settled yet: direct messages awaiting their acknowledgement.", count)
    }

    /// The last packet heard: from the packet log as it comes, and from each statistics reading.
    private func signal(rssi: Double, snr: Double) {
        gauge("meshport_radio_last_rssi_dbm", "RSSI of the last packet the radio heard, dBm.", rssi)
        gauge("meshport_radio_last_snr_db", "SNR of the last packet the radio heard, dB.", snr)
    }

    private func gauge(_ name: String, _ help: String, _ value: some BinaryInteger) {
        registry.gauge(name, help, labels).record(value)
    }

    private func gauge(_ name: String, _ help: String, _ value: Double) {
        registry.gauge(name, help, labels).record(value)
    }

    private func count(_ family: (name: String, help: String), _ more: [(String, String)] = []) {
        registry.counter(family.name, family.help, labels + more).increment()
    }
}

/// The outgoing messages' last statuses, so that each move is counted once: a status event
/// also comes for a heard repeat, with the status unchanged. The newest `kept` are remembered,
/// far more than are ever in flight at once.
struct OutgoingTally: Sendable {
    private var statuses: [Int64: MessageStatus] = [:]
    private var order: [Int64] = []
    static let kept = 1000

    /// Whether the message is seen for the first time, and its new status if it moved.
    mutating func move(_ message: StoredMessage) -> (first: Bool, moved: MessageStatus?) {
        let previous = statuses[message.id]
        if previous == nil {
            order.append(message.id)
            if order.count > Self.kept { statuses[order.removeFirst()] = nil }
        }
        statuses[message.id] = message.status
        return (previous == nil, previous == message.status ? nil : message.status)
    }
}
