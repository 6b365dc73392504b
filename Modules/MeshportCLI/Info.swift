import ArgumentParser
import Foundation
import MeshCodec
import MeshServices

/// `meshport info`: connect, sync, and describe the radio.
struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Connect, sync contacts, channels and waiting messages, and describe the radio.")

    @OptionGroup var options: RadioOptions

    func run() async throws {
        try await reportingRadioErrors {
            try await RadioConnection.with(options) { radio in
                let device = try await radio.session.expect(.deviceQuery(appTargetVersion: 3)) { if case let .deviceInfo(v) = $0 { v } else { nil } }
                let battery = try await radio.telemetry.batteryAndStorage()
                let counts = try radio.store.reader.rowCounts(radio.context.radio)
                let me = radio.context.selfInfo
                let channels = try radio.store.reader.channels(radio.context.radio).filter { $0.kind != .empty }
                if options.json {
                    var out: [String: Any] = [
                        "radio": radio.radioURL, "name": me.name, "key": me.publicKey.hex, "type": me.advertType.description,
                        "firmware": device.firmwareVersion ?? "", "protocol": Int(device.protocolVersion), "manufacturer": device.manufacturer,
                        "buildDate": device.buildDate, "frequencyMHz": me.radio.frequencyMHz, "bandwidthKHz": me.radio.bandwidthKHz,
                        "spreadingFactor": Int(me.radio.spreadingFactor), "codingRate": Int(me.radio.codingRate), "txPower": Int(me.txPower),
                        "batteryMillivolts": Int(battery.millivolts), "contacts": try radio.store.reader.contactCount(radio.context.radio),
                        "channels": channels.count, "messages": counts["messages"] ?? 0, "database": radio.store.path,
                    ]
                    if !me.position.isZero {
                        out["latitude"] = me.position.latitude
                        out["longitude"] = me.position.longitude
                    }
                    try Output.json(out)
                } else {
                    Output.lines([
                        ("radio", radio.radioURL), ("name", me.name), ("key", me.publicKey.hex),
                        ("firmware", "\(device.firmwareVersion ?? "?") (\(device.buildDate), protocol \(device.protocolVersion)) \(device.manufacturer)"),
                        ("radio params", String(format: "%.3f MHz, BW %.1f kHz, SF%d, CR%d, %d dBm", me.radio.frequencyMHz, me.radio.bandwidthKHz,
                                                Int(me.radio.spreadingFactor), Int(me.radio.codingRate), Int(me.txPower))),
                        ("position", me.position.isZero ? "not set" : String(format: "%.5f, %.5f", me.position.latitude, me.position.longitude)),
                        ("battery", Describe.volts(Int(battery.millivolts))),
                        ("contacts", "\(try radio.store.reader.contactCount(radio.context.radio))"),
                        ("channels", channels.map { "\($0.index) \($0.name)" }.joined(separator: ", ")),
                        ("messages", "\(counts["messages"] ?? 0) stored"), ("database", radio.store.path),
                    ])
                }
            }
        }
    }
}
