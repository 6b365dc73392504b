import Foundation
import MeshCodec

/// The retained message on `.../status` (Docs/gateway.md, "Status message"): `online` with the
/// radio's parameters, model, firmware and stats, refreshed every few minutes; the broker
/// publishes the `offline` form as the gateway's last will.
public struct StatusMessage: Codable, Hashable, Sendable {
    public var status: String
    public var timestamp: String
    public var origin: String
    public var originID: String
    public var model: String?
    public var firmwareVersion: String?
    /// Frequency in MHz, bandwidth in kHz, spreading factor, coding rate, comma-separated.
    public var radio: String?
    public var clientVersion: String?
    public var stats: GatewayStats?

    enum CodingKeys: String, CodingKey {
        case status, timestamp, origin, model, radio, stats
        case originID = "origin_id"
        case firmwareVersion = "firmware_version"
        case clientVersion = "client_version"
    }

    /// `online`: what the radio said about itself (SELF_INFO, DEVICE_INFO, its stats when it
    /// gave them) and this program's `name/version`.
    public static func online(selfInfo: SelfInfo, device: DeviceInfo, stats: GatewayStats?, clientVersion: String,
                              at instant: Date) -> StatusMessage {
        let origin = GatewayOrigin(selfInfo)
        let (model, firmware) = describe(device)
        return StatusMessage(status: "online", timestamp: CommunityTime(instant).timestamp, origin: origin.name, originID: origin.id,
                             model: model, firmwareVersion: firmware, radio: radioText(selfInfo.radio),
                             clientVersion: clientVersion, stats: stats)
    }

    /// The last will: `offline`, the time it was set up, and who.
    public static func offline(origin: GatewayOrigin, at instant: Date) -> StatusMessage {
        StatusMessage(status: "offline", timestamp: CommunityTime(instant).timestamp, origin: origin.name, originID: origin.id)
    }

    /// Model and firmware as the companion tool spells them: from protocol version 3 on, the
    /// manufacturer string and `v1.17.1 (Build: 25-Nov-2025)`; before that only `v` and the
    /// protocol number.
    static func describe(_ device: DeviceInfo) -> (model: String, firmware: String) {
        guard device.protocolVersion >= 3 else { return ("unknown", "v\(device.protocolVersion)") }
        let version = device.firmwareVersion.map { $0.hasPrefix("v") ? String($0.dropFirst()) : $0 } ?? "Unknown"
        return (device.manufacturer, "v\(version) (Build: \(device.buildDate))")
    }

    /// The numbers printed as Python prints the floats the reference client makes of them
    /// (869.525, 250.0): the shortest text that reads back as the same double.
    static func radioText(_ radio: RadioParams) -> String {
        "\(radio.frequencyMHz),\(radio.bandwidthKHz),\(radio.spreadingFactor),\(radio.codingRate)"
    }
}

/// The `stats` object: the radio's STATS answers under the reference client's names, numbers as
/// JSON numbers. A sub-frame the radio did not give leaves its fields out.
public struct GatewayStats: Codable, Hashable, Sendable {
    public var batteryMillivolts: UInt16?
    public var uptimeSeconds: UInt32?
    public var errors: UInt16?
    public var queueLength: UInt8?
    public var noiseFloor: Int16?
    public var lastRSSI: Int8?
    public var lastSNR: Double?
    public var txAirSeconds: UInt32?
    public var rxAirSeconds: UInt32?
    public var received: UInt32?
    public var sent: UInt32?
    public var sentFlood: UInt32?
    public var sentDirect: UInt32?
    public var receivedFlood: UInt32?
    public var receivedDirect: UInt32?
    public var receiveErrors: UInt32?
    /// The companion tool repeats `sent` and `recv` under these names.
    public var packetsSent: UInt32?
    public var packetsReceived: UInt32?

    enum CodingKeys: String, CodingKey {
        case errors, sent
        case batteryMillivolts = "battery_mv"
        case uptimeSeconds = "uptime_secs"
        case queueLength = "queue_len"
        case noiseFloor = "noise_floor"
        case lastRSSI = "last_rssi"
        case lastSNR = "last_snr"
        case txAirSeconds = "tx_air_secs"
        case rxAirSeconds = "rx_air_secs"
        case received = "recv"
        case sentFlood = "flood_tx"
        case sentDirect = "direct_tx"
        case receivedFlood = "flood_rx"
        case receivedDirect = "direct_rx"
        case receiveErrors = "recv_errors"
        case packetsSent = "packets_sent"
        case packetsReceived = "packets_received"
    }

    public init(core: CoreStats?, radio: RadioStats?, packets: PacketStats?) {
        batteryMillivolts = core?.batteryMillivolts
        uptimeSeconds = core?.uptimeSeconds
        errors = core?.errorFlags
        queueLength = core?.queueLength
        noiseFloor = radio?.noiseFloor
        lastRSSI = radio?.lastRSSI
        lastSNR = radio?.lastSNR
        txAirSeconds = radio?.txAirtimeSeconds
        rxAirSeconds = radio?.rxAirtimeSeconds
        received = packets?.received
        sent = packets?.sent
        sentFlood = packets?.sentFlood
        sentDirect = packets?.sentDirect
        receivedFlood = packets?.receivedFlood
        receivedDirect = packets?.receivedDirect
        receiveErrors = packets?.receiveErrors
        packetsSent = packets?.sent
        packetsReceived = packets?.received
    }

    /// Nil when the radio gave no stats at all: the message then has no `stats`.
    public init?(_ all: [Stats]) {
        var core: CoreStats?, radio: RadioStats?, packets: PacketStats?
        for stats in all {
            switch stats {
            case let .core(c): core = c
            case let .radio(r): radio = r
            case let .packets(p): packets = p
            }
        }
        guard core != nil || radio != nil || packets != nil else { return nil }
        self.init(core: core, radio: radio, packets: packets)
    }
}
