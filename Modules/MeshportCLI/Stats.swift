import ArgumentParser
import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// `meshport stats`: the radio's own counters (GET_STATS core, radio and packets; battery).
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show the radio's counters: battery, uptime, noise, airtime, packets.")

    @OptionGroup var options: RadioOptions

    func run() async throws {
        try await reportingRadioErrors {
            let rows = try await RadioConnection.with(options, showProgress: false) { radio in
                let stats = try await radio.telemetry.sample()
                var rows = Self.rows(.core(stats.core)) + Self.rows(.radio(stats.radio)) + Self.rows(.packets(stats.packets))
                if let used = stats.battery.storageUsedKiB, let total = stats.battery.storageTotalKiB {
                    rows += [("storageUsedKiB", Int(used)), ("storageTotalKiB", Int(total))]
                }
                return rows
            }
            if options.json {
                try Output.json(Dictionary(rows, uniquingKeysWith: { $1 }))
            } else {
                Output.lines(rows.map { ($0.0, "\($0.1)") })
            }
        }
    }

    static func rows(_ stats: Stats) -> [(String, Int)] {
        switch stats {
        case let .core(c):
            [("batteryMillivolts", Int(c.batteryMillivolts)), ("uptimeSeconds", Int(c.uptimeSeconds)), ("errorFlags", Int(c.errorFlags)),
             ("queueLength", Int(c.queueLength))]
        case let .radio(r):
            [("noiseFloor", Int(r.noiseFloor)), ("lastRSSI", Int(r.lastRSSI)), ("lastSNRx4", Int(r.lastSNRx4)),
             ("txAirtimeSeconds", Int(r.txAirtimeSeconds)), ("rxAirtimeSeconds", Int(r.rxAirtimeSeconds))]
        case let .packets(p):
            [("packetsReceived", Int(p.received)), ("packetsSent", Int(p.sent)), ("sentFlood", Int(p.sentFlood)), ("sentDirect", Int(p.sentDirect)),
             ("receivedFlood", Int(p.receivedFlood)), ("receivedDirect", Int(p.receivedDirect))] + (p.receiveErrors.map { [("receiveErrors", Int($0))] } ?? [])
        }
    }
}
