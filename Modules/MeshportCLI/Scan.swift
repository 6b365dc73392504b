import ArgumentParser
import Foundation
import MeshTransport

/// `meshport scan`: asks every loaded driver which radios it can reach now.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "List radios the loaded drivers can reach (serial ports, BLE, USB).")

    @Option(help: ArgumentHelp("Ask only the driver of this URL scheme.", valueName: "scheme"))
    var scheme: String?
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        try await reportingErrors {
            let loader = PluginLoader.loadDefault()
            var drivers = loader.loaded
            if let scheme {
                guard let driver = loader.driver(for: scheme) else {
                    throw TransportError.noDriver(scheme: scheme, url: "\(scheme)://", loaded: loader.loaded.flatMap(\.schemes))
                }
                drivers = [driver]
            }
            var found: [(driver: String, radio: DiscoveredRadio)] = []
            var failures: [(driver: String, error: TransportError)] = []
            for driver in drivers {
                do throws(TransportError) {
                    let radios = try driver.discover()
                    found += radios.map { (driver.name, $0) }
                } catch {
                    failures.append((driver.name, error))
                }
            }
            if json {
                try Output.json([
                    "radios": found.map { ["driver": $0.driver, "url": $0.radio.url, "label": $0.radio.label, "details": $0.radio.details] },
                    "errors": failures.map { ["driver": $0.driver, "error": "\($0.error)"] },
                ])
            } else {
                if found.isEmpty {
                    print("no radios found (drivers asked: \(drivers.map(\.name).joined(separator: ", ")))")
                } else {
                    Output.table(["url", "label", "driver", "details"], found.map { [$0.radio.url, $0.radio.label, $0.driver, $0.radio.details] })
                }
                for failure in failures { Output.error("\(failure.driver): \(failure.error)") }
            }
            // Radios found by one driver are worth showing even when another failed.
            if found.isEmpty && !failures.isEmpty { throw ExitCode.failure }
        }
    }
}
