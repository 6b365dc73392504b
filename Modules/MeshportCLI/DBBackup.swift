import ArgumentParser
import Foundation
import MeshStore

/// `meshport db backup`: an online copy (SQLite backup API) while the radio keeps writing.
struct DBBackup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backup", abstract: "Copy the live database to a new file.")

    @OptionGroup var options: DBOptions
    @Option(help: ArgumentHelp("Destination file.", valueName: "path")) var to: String
    @Flag(help: "Replace the destination if it exists.") var overwrite = false
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        try await reportingErrors {
            let store = try options.open()
            let line = ProgressLine()
            let report = try store.backup(to: to, overwrite: overwrite) { p in line.update(phase: p.phase, done: p.done, total: p.total) }
            if json {
                try Output.json(["destination": report.destination, "pages": report.pages, "bytes": report.bytes, "seconds": report.seconds])
            } else {
                Output.lines([("destination", report.destination), ("pages", "\(report.pages)"), ("bytes", "\(report.bytes)"),
                              ("elapsed", Output.seconds(report.seconds))])
            }
        }
    }
}
