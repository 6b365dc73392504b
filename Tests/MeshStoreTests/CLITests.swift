import Foundation
import MeshportTestSupport
import Testing

/// The `meshport db` commands as a person runs them: output, JSON, exit status, stderr.
@Suite(.timeLimit(.minutes(1))) struct CLITests {
    @Test func seedSearchCheckBackup() async throws {
        let dir = TempDir()
        let db = dir.path()
        let seed = try await runMeshport(["db", "seed", "--db", db, "--nodes", "50", "--telemetry", "1", "--stats", "1", "--positions", "1", "--messages", "200"])
        #expect(seed.status == 0, "\(seed.err)")
        #expect(seed.out.contains("nodes         50") && seed.out.contains("elapsed"))
        #expect(seed.err.contains("nodes: 50/50 (100%)"))  // progress as plain lines off a terminal

        let again = try await runMeshport(["db", "seed", "--db", db, "--nodes", "50", "--json"])
        let skipped = try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any]
        #expect(skipped?["skipped"] as? Bool == true && skipped?["nodes"] as? Int == 50)

        let search = try await runMeshport(["db", "--read-only", "search", "--db", db, "--json", "--limit", "5", "hello"])
        #expect(search.status == 0, "\(search.err)")
        let hits = try JSONSerialization.jsonObject(with: Data(search.out.utf8)) as? [[String: Any]]
        #expect(hits?.count == 5)
        #expect(hits?.allSatisfy { ($0["snippet"] as? String)?.lowercased().contains("[hello]") == true } == true)

        let check = try await runMeshport(["db", "check", "--read-only", "--db", db])
        #expect(check.status == 0)
        let integrity = check.out.split(separator: "\n").first { $0.hasPrefix("integrity ") }
        #expect(integrity?.split(separator: " ").last == "ok", "the integrity line says ok: \(check.out)")
        #expect(check.out.contains("v3-message-search"))

        let backup = try await runMeshport(["db", "backup", "--db", db, "--to", dir.path("copy.db")])
        #expect(backup.status == 0 && backup.out.contains("destination"))
        let refused = try await runMeshport(["db", "backup", "--db", db, "--to", dir.path("copy.db")])
        #expect(refused.status == 1 && refused.err.hasPrefix("meshport: error: backup to") && refused.out.isEmpty)
    }

    @Test func errorsGoToStderrWithNonZeroStatus() async throws {
        let dir = TempDir()
        let missing = try await runMeshport(["db", "check", "--read-only", "--db", dir.path("none.db")])
        #expect(missing.status == 1 && missing.err.contains("no such file"))
        let readOnlySeed = try await runMeshport(["db", "--read-only", "seed", "--db", dir.path(), "--nodes", "1"])
        #expect(readOnlySeed.status == 1 && readOnlySeed.err.contains("drop --read-only"))
        let badQuery = try await runMeshport(["db", "search", "--db", dir.path(), "***"])
        #expect(badQuery.status == 1 && !badQuery.err.isEmpty)
    }
}
