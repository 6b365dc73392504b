import Foundation
import MeshportTestSupport
import MeshSim
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `meshport sim --stdio` as a driver author's CI uses it (Docs/plugin-authoring.md): socat
/// carries it over a byte stream of the author's choice, here TCP with a fresh simulator per
/// connection (`fork`), and the whole suite passes through the tcp:// driver, the drop and
/// reconnect checks included.
@Suite(.timeLimit(.minutes(3))) struct SimStdioConformanceTests {
    @Test func theSuitePassesAgainstStdioBehindSocat() async throws {
        let port = Int(try freeLoopbackPort())
        let socat = try SocatProcess(["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork", "EXEC:\(try meshportBinary().path) sim --stdio --seed 16"])
        #expect(await offPool { listening(port, within: 30) }, "socat does not listen on \(port)")

        let run = try await runMeshport(["conformance", "--json", "tcp://127.0.0.1:\(port)", "--contacts", "\(DefaultMesh.nodeCount)"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.out)\n\(run.err)")
        let checks = report["checks"] as? [[String: Any]] ?? []
        let notPassed = checks.filter { $0["result"] as? String != "passed" }.map { "\($0["name"] ?? "?"): \($0["detail"] ?? "")" }
        #expect(notPassed.isEmpty && checks.count >= 15 && run.status == 0, "\(notPassed)")
        withExtendedLifetime(socat) {}
    }

    /// True once a connection to `port` succeeds (socat then starts a simulator that sees
    /// end of file at once and stops). Blocks: through `offPool`.
    private func listening(_ port: Int, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            do {
                close(try connectLoopback(port: port))
                return true
            } catch {
                usleep(50_000)
            }
        }
        return false
    }
}
