import ArgumentParser
import Foundation
import MeshConformance
import MeshTransport

/// `meshport conformance URL`: the driver conformance suite against the device at URL.
struct Conformance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the driver conformance suite against a device.",
        discussion: """
            Link checks need a far side that answers the conformance commands (MeshSim does); \
            protocol checks need a radio or simulator. Checks whose far side is missing are \
            reported as skipped. Exit status 1 when any check fails.
            """)

    @Argument(help: ArgumentHelp("Transport URL of the device, e.g. tcp://127.0.0.1:5000 or serial:///dev/ttyACM0.", valueName: "url"))
    var url: String

    @Option(help: ArgumentHelp("A URL of the same driver naming a device that does not exist (the missing-device check).", valueName: "url"))
    var missingURL: String?

    @Option(help: "How many contacts a prepared far side holds (a simulator): the contact sync must bring them all. Without it, the check takes what a radio holds.")
    var contacts: Int?

    @Flag(help: "Print the report as JSON.") var json = false

    /// Missing-device URLs for the built-in drivers; other drivers take --missing-url.
    static let missingDefaults = ["tcp": "tcp://127.0.0.1:1", "serial": "serial:///dev/ttyMESHPORT-missing"]

    func validate() throws {
        if let contacts, contacts < 0 { throw ValidationError("--contacts must be 0 or more, not \(contacts)") }
    }

    func run() async throws {
        try await reportingErrors {
            let scheme = try TransportURL.parsed(url).scheme
            let missingText = missingURL ?? Self.missingDefaults[scheme]
            if let missingText {
                let other = try TransportURL.parsed(missingText).scheme
                guard other == scheme else { throw ValidationError("--missing-url must use the scheme \(scheme)://, not \(other)://") }
            }
            let targets = try RadioTarget.resolve([url] + (missingText.map { [$0] } ?? []))
            let (target, missing) = (targets[0], targets.dropFirst().first)
            let driver = target.driver
            var suite = ConformanceSuite(
                driverName: driver.name, url: url, linkKind: driver.linkKind, maxFrameSize: driver.maxFrameSize,
                makeTransport: { target.transport() },
                missingDevice: missing.map { m in { @Sendable in m.transport() } })
            suite.expectedContacts = contacts
            let report = await suite.run()
            print(json ? try report.json() : report.table())
            if !report.ok { throw ExitCode.failure }
        }
    }
}
