import Foundation
import MeshportTestSupport
import Testing

/// A C driver built outside this repository as its author's CI builds it: Plugins/Loopback/ci.sh
/// on a copy of loopback.c in a folder of its own, with cc and the checkout's meshport-driver.pc,
/// then `meshport plugins` and `meshport conformance` with that folder on the plugin path.
@Suite(.timeLimit(.minutes(2))) struct OutOfTreeDriverTests {
    /// The checkout this test was built from.
    private static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let pkgConfigPath = checkout.appendingPathComponent("Modules/MeshDriverABI").path

    private struct Run { var status: Int32, out: String, err: String }

    /// Copies loopback.c (changed by `edit`) and ci.sh into a fresh folder and runs the script
    /// there, meshport's folder first on the PATH, HOME and XDG folders of its own.
    private func runCI(in dir: TempDir, edit: (String) throws -> String = { $0 }) async throws -> Run {
        let source = try String(contentsOf: Self.checkout.appendingPathComponent("Plugins/Loopback/loopback.c"), encoding: .utf8)
        try edit(source).write(toFile: dir.path("loopback.c"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.checkout.appendingPathComponent("Plugins/Loopback/ci.sh").path, toPath: dir.path("ci.sh"))
        return try await run("/bin/sh", ["ci.sh"], in: dir)
    }

    private func run(_ executable: String, _ arguments: [String], in dir: TempDir) async throws -> Run {
        let bin = try meshportBinary().deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = dir.url
        process.environment = meshportEnvironment(in: dir, [
            "PATH": "\(bin):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
            "PKG_CONFIG_PATH": Self.pkgConfigPath,
        ])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let (exited, exit) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exit.yield($0.terminationStatus); exit.finish() }
        try process.run()
        let outReader = PipeReader(out.fileHandleForReading), errReader = PipeReader(err.fileHandleForReading)
        var status: Int32 = -1
        for await s in exited { status = s }
        return Run(status: status, out: try await outReader.fullText(), err: try await errReader.fullText())
    }

    @Test func theCExampleBuiltOutOfTreePassesTheSuite() async throws {
        let dir = TempDir()
        let ci = try await runCI(in: dir)
        #expect(ci.status == 0, "ci.sh failed: \(ci.out)\n\(ci.err)")
        let library = dir.path("build/plugins/libloopback.so")
        // `meshport plugins` listed it from the plugin path, then the suite ran on it.
        #expect(ci.out.contains(library), "\(ci.out)")
        let summary = ci.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("loopback loopback://ci: ") && summary.contains(" 0 failed"), "\(ci.out)")

        // The .pc file's version is the ABI the header gives the driver, as meshport reports it.
        let version = try await run("/usr/bin/env", ["pkg-config", "--modversion", "meshport-driver"], in: dir)
        let plugins = try await runMeshport(["plugins", "--json"], environment: ["MESHPORT_PLUGIN_PATH": dir.path("build/plugins")])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(plugins.out.utf8)) as? [String: Any])
        let loopback = try #require((listed["loaded"] as? [[String: Any]])?.first { $0["path"] as? String == library })
        #expect(loopback["abi"] as? String == version.out.trimmingCharacters(in: .whitespacesAndNewlines),
                "Modules/MeshDriverABI/meshport-driver.pc says \(version.out), the header \(loopback["abi"] ?? "?")")
    }

    /// Docs/plugin-authoring.md shows the script: every command of ci.sh is there.
    @Test func theDocsShowTheScriptThatRuns() throws {
        let script = try String(contentsOf: Self.checkout.appendingPathComponent("Plugins/Loopback/ci.sh"), encoding: .utf8)
        let docs = try String(contentsOf: Self.checkout.appendingPathComponent("Docs/plugin-authoring.md"), encoding: .utf8)
        let commands = script.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
        #expect(commands.count >= 10)
        for line in commands { #expect(docs.contains(line), "Docs/plugin-authoring.md lacks ci.sh's line: \(line)") }
    }

    /// The same build with `send` always failing: the suite fails and so does the script.
    @Test func aBrokenDriverFailsTheScript() async throws {
        let dir = TempDir()
        let ci = try await runCI(in: dir) { source in
            let check = "    if (length == 0 || length > MAX_FRAME) {"
            guard source.contains(check) else { throw ProcessFailure("loopback.c changed: no length check in send to break") }
            return source.replacingOccurrences(of: check, with: """
                    meshport_error_set(error, MESHPORT_ERR_OTHER, "broken on purpose");
                    return -1;
                \(check)
                """)
        }
        #expect(ci.status == 1, "ci.sh: exit status \(ci.status): \(ci.out)\n\(ci.err)")
        let summary = ci.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("loopback loopback://ci: ") && !summary.contains(" 0 failed"), "\(ci.out)")
        #expect(ci.out.contains("broken on purpose"), "\(ci.out)")
    }
}
