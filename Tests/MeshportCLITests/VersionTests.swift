import Foundation
import MeshServices
import MeshportTestSupport
import Testing

/// `meshport --version`: the number in VERSION and the commit git names, both written into the
/// build by Tools/build-info.sh; the same MeshportVersion the server and the uplink report.
@Suite(.timeLimit(.minutes(2))) struct VersionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("meshport --version prints the VERSION file's number and the sources' git commit")
    func versionLine() async throws {
        let number = try String(contentsOf: Self.root.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let git = try await offPool { try runToolToEnd("/usr/bin/git", ["-C", Self.root.path, "rev-parse", "--short=7", "HEAD"]) }
        let commit = git.status == 0 ? git.output.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
        let result = try await runMeshport(["--version"])
        #expect(result.status == 0)
        #expect(result.out == "meshport \(number) (commit \(commit))\n")
        #expect(MeshportVersion.text == number)
        #expect(result.out == MeshportVersion.full + "\n")
    }

    @Test("sources outside git build as commit unknown; a malformed VERSION stops the build")
    func buildInfoScript() async throws {
        let dir = TempDir()
        let script = Self.root.appendingPathComponent("Tools/build-info.sh").path
        try "1.2.3\n".write(toFile: dir.path("VERSION"), atomically: true, encoding: .utf8)
        let written = try await offPool { try runToolToEnd("/bin/sh", [script, dir.url.path, dir.path("out/MeshportBuild.swift")]) }
        #expect(written.status == 0, "\(written.output)")
        let source = try String(contentsOfFile: dir.path("out/MeshportBuild.swift"), encoding: .utf8)
        #expect(source.contains("static let version = \"1.2.3\""))
        #expect(source.contains("static let commit: String? = nil"))

        try "1.2.3\"; evil\n".write(toFile: dir.path("VERSION"), atomically: true, encoding: .utf8)
        let refused = try await offPool { try runToolToEnd("/bin/sh", [script, dir.url.path, dir.path("out/MeshportBuild.swift")]) }
        #expect(refused.status != 0)
        #expect(refused.output.contains("is not a version number"))
        #expect(try String(contentsOfFile: dir.path("out/MeshportBuild.swift"), encoding: .utf8) == source)
    }
}
