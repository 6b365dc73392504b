import ArgumentParser
import Foundation
import Logging
import MeshUplink

/// `meshport uplink`: a gateway without HTTP: the radio's heard packets to MQTT brokers in the
/// community format until interrupted (Docs/gateway.md). `serve --mqtt` does the same beside
/// the API.
struct UplinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uplink",
        abstract: "Uplink every packet the radio hears to MQTT brokers in the MeshCore community format.",
        discussion: "Runs until interrupted. Reconnects to the radio and to each broker when they go away. See Docs/gateway.md.")

    @OptionGroup var options: RadioOptions
    @Option(name: .customLong("mqtt"), help: ArgumentHelp("A broker: mqtt[s]://[USER:PASSWORD@]HOST[:PORT]?region=IATA[&auth=token][&qos=0|1][&messages=on][&commands=on]...; repeatable.", valueName: "url"))
    var mqtt: [String] = []

    func validate() throws {
        guard !mqtt.isEmpty else { throw ValidationError("give at least one --mqtt URL") }
        for text in mqtt {
            do {
                _ = try UplinkTarget(parsing: text)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() async throws {
        let targets = try mqtt.map { try UplinkTarget(parsing: $0) }
        let folder = URL(fileURLWithPath: options.databasePath).deletingLastPathComponent().appendingPathComponent("uplink")
        var logger = Logger(label: "meshport.uplink")
        logger.logLevel = .notice
        try await reportingRadioErrors {
            try await RadioConnection.with(options, keepAlive: true) { radio in
                var uplinks: [Uplink] = []
                do {
                    for (index, target) in targets.enumerated() {
                        let uplink = try Uplink(target: target, index: index, context: radio.context, backlogRoot: folder,
                                                logger: logger)
                        try await uplink.start()
                        uplinks.append(uplink)
                    }
                } catch {
                    // The ones already up say `offline` before the command fails.
                    for uplink in uplinks { await uplink.stop() }
                    throw error
                }
                let signal = await Termination.wait()
                logger.notice("Stopped by \(signal).")
                for uplink in uplinks { await uplink.stop() }
            }
        }
    }
}
