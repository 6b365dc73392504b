import ArgumentParser
import Foundation
import MeshStore

/// `meshport db check`: integrity, foreign keys and schema state; exit status 1 if not ok.
struct DBCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Check the database's integrity and schema.")

    @OptionGroup var options: DBOptions
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        try await reportingErrors {
            let store = try options.open()
            let report = try store.integrityCheck()
            var radios: [(StoredRadio, [String: Int])] = []
            for radio in try store.reader.radios() { radios.append((radio, try store.reader.rowCounts(radio.id))) }
            if json {
                try Output.json([
                    "path": options.db, "ok": report.isOK, "integrity": report.integrity, "foreignKeyViolations": report.foreignKeyViolations,
                    "migrations": report.appliedMigrations, "pendingMigrations": report.pendingMigrations,
                    "bytes": report.pageCount * report.pageSize,
                    "radios": radios.map { r, counts in ["key": r.publicKey.hex, "name": r.name, "rows": counts] as [String: Any] },
                ])
            } else {
                var rows: [(String, String)] = [
                    ("path", options.db),
                    ("integrity", report.integrity.joined(separator: "; ")),
                    ("foreign keys", report.foreignKeyViolations.isEmpty ? "ok" : report.foreignKeyViolations.joined(separator: "; ")),
                    ("migrations", report.appliedMigrations.joined(separator: ", ")),
                    ("pending", report.pendingMigrations.isEmpty ? "none" : report.pendingMigrations.joined(separator: ", ")),
                    ("size", "\(report.pageCount) pages x \(report.pageSize) bytes"),
                ]
                for (radio, counts) in radios {
                    rows.append(("radio \(radio.publicKey.prefix(8).hex)", radio.name))
                    rows += counts.sorted { $0.key < $1.key }.map { ("  \($0.key)", "\($0.value)") }
                }
                Output.lines(rows)
            }
            guard report.isOK else { throw ExitCode.failure }
        }
    }
}
