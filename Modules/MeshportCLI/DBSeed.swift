import ArgumentParser
import Foundation
import MeshStore

/// `meshport db seed`: synthetic data for performance work (persistence.md, scale harness).
struct DBSeed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill the database with synthetic nodes, samples and messages.",
        discussion: "Skips seeding when the seed radio already holds at least --nodes nodes, unless --reset is given.")

    @OptionGroup var options: DBOptions
    @Option(help: "Nodes (contacts) to create.") var nodes: Int
    @Option(help: "Telemetry samples per node.") var telemetry = 0
    @Option(help: "Radio stats samples per node.") var stats = 0
    @Option(help: "Positions per node.") var positions = 0
    @Option(help: "Messages in all (half on 8 channels, half DMs).") var messages = 0
    @Flag(help: "Remove the seed radio's rows first.") var reset = false
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        try await reportingErrors {
            guard !options.readOnly else { throw CLIError("seed writes to the database; drop --read-only") }
            // Seeding is re-creatable test data: a power cut may cost the last chunk, not the file.
            let store = try options.open(durability: .normal)
            let plan = SeedPlan(nodes: nodes, telemetryPerNode: telemetry, statsPerNode: stats, positionsPerNode: positions,
                                messages: messages, reset: reset)
            let line = ProgressLine()
            let report = try await Seeder.run(store, plan: plan) { p in line.update(phase: p.phase, done: p.done, total: p.total) }
            try await store.close()
            if json {
                try Output.json(["skipped": report.skipped, "nodes": report.nodes, "nodesBefore": report.nodesBefore,
                                 "rowsWritten": report.rowsWritten, "seconds": report.seconds, "radio": report.radio.description])
            } else if report.skipped {
                Output.lines([("skipped", "\(options.db) already holds \(report.nodesBefore) seed nodes (>= \(nodes)); --reset seeds again"),
                              ("elapsed", Output.seconds(report.seconds))])
            } else {
                Output.lines([("nodes", "\(report.nodes)"), ("rows written", "\(report.rowsWritten)"), ("elapsed", Output.seconds(report.seconds))])
            }
        }
    }
}
