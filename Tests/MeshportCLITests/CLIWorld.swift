import Foundation
import MeshportTestSupport

/// How a test reaches the simulated radio: over TCP, or the serial driver on the sim's pty.
enum Link: String, CaseIterable, CustomStringConvertible, Sendable {
    case tcp, serial
    var description: String { rawValue }
}

/// One test's own meshport: config and data folders of its own (XDG_CONFIG_HOME,
/// XDG_DATA_HOME), and `meshport sim` in its own process on a free port or a new pty.
final class CLIWorld: Sendable {
    let dir = TempDir()
    let sim: SimProcess
    /// The --radio URL of the sim.
    let radio: String

    /// `scenario`: JSON of a MeshSim scenario; none: the default mesh.
    init(_ link: Link, scenario: String? = nil, seed: Int = 1) async throws {
        var arguments = link == .tcp ? ["--listen", "tcp://127.0.0.1:0"] : ["--pty"]
        if let scenario {
            let file = dir.url.appendingPathComponent("scenario.json")
            try Data(scenario.utf8).write(to: file)
            arguments += ["--scenario", file.path]
        }
        sim = try await SimProcess(arguments + ["--seed", "\(seed)"])
        radio = link == .tcp ? sim.address : "serial://" + sim.address
    }

    var environment: [String: String] { meshportEnvironment(in: dir) }

    /// The database meshport keeps under this world's XDG_DATA_HOME.
    var database: String { dir.path("data") + "/meshport/meshport.db" }

    /// Runs `meshport` with `arguments` and `--radio` (after the subcommand path) against the sim.
    func run(_ arguments: [String], radio: Bool = true) async throws -> (status: Int32, out: String, err: String) {
        try await runMeshport(radio ? arguments + ["--radio", self.radio] : arguments, environment: environment)
    }

    /// The texts of stored messages matching `query` (`meshport db search --json`), sorted.
    func searchTexts(_ query: String) async throws -> [String] {
        let r = try await run(["db", "search", "--db", database, "--json", query], radio: false)
        guard r.status == 0, let hits = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] else {
            throw ProcessFailure("db search \(query): \(r.status) \(r.err)")
        }
        return hits.compactMap { $0["text"] as? String }.sorted()
    }

    /// Runs and decodes stdout as JSON.
    func json(_ arguments: [String]) async throws -> (status: Int32, value: Any, err: String) {
        let r = try await run(arguments + ["--json"])
        guard r.status == 0 else { return (r.status, NSNull(), r.err) }
        do {
            return (r.status, try JSONSerialization.jsonObject(with: Data(r.out.utf8)), r.err)
        } catch {
            throw ProcessFailure("not JSON from \(arguments): \(r.out)")
        }
    }
}
