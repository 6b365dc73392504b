import Foundation
import MeshportTestSupport
import MeshSim
import Testing

/// `meshport conformance URL --json` as CI and driver authors run it: a separate process
/// (its fd and memory checks see only the suite's own work), the radio side served by
/// `meshport sim` over TCP, a pty and emulated BLE. The C example is an echo device: its
/// protocol checks and its garbage check (packet link) are skipped; every link check runs.
@Suite(.timeLimit(.minutes(2))) struct ConformanceTests {
    private struct Report: Decodable {
        struct Check: Decodable { var name, result, detail: String }
        var driver, url: String
        var passed, failed, skipped: Int
        var checks: [Check]
    }

    private func conformance(_ arguments: [String], environment: [String: String] = [:],
                             skipped allowed: Set<String> = []) async throws -> Report {
        let run = try await runMeshport(["conformance", "--json"] + arguments, environment: environment)
        let report = try JSONDecoder().decode(Report.self, from: Data(run.out.utf8))
        for c in report.checks where c.result == "failed" || (c.result == "skipped" && !allowed.contains(c.name)) {
            Issue.record("\(report.driver): \(c.name) \(c.result): \(c.detail)")
        }
        #expect(report.passed + report.skipped == report.checks.count)
        #expect(run.status == (report.failed == 0 ? 0 : 1), "exit status \(run.status) with \(report.failed) failed")
        return report
    }

    /// MeshSim as the far side, run as users run it (`meshport sim`): every check passes,
    /// protocol checks included.
    @Test func meshSimOverTCP() async throws {
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0", "--seed", "11"])
        let report = try await conformance([sim.address, "--contacts", "\(DefaultMesh.nodeCount)"])
        #expect(report.passed == report.checks.count && report.passed >= 15)
        withExtendedLifetime(sim) {}
    }

    /// A radio nobody prepared (no --contacts): the contact sync takes what it holds, and the
    /// DM check passes run after run, though a recipient drops a repeated packet (MeshSim's
    /// nodes do, as the firmware's).
    @Test func anUnpreparedRadioPassesRunAfterRun() async throws {
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0", "--seed", "14"])
        for run in 1...2 {
            let report = try await conformance([sim.address])
            let failed = report.checks.filter { $0.result == "failed" }.map { "\($0.name): \($0.detail)" }
            #expect(failed.isEmpty && report.passed == report.checks.count, "run \(run): \(failed)")
            let dm = report.checks.first { $0.name == "DM with ACK" }
            #expect(dm?.detail.contains("is now in") == true, "run \(run): \(dm?.detail ?? "no DM check")")
        }
        withExtendedLifetime(sim) {}
    }

    @Test func meshSimOverPty() async throws {
        // A stable link path, as udev gives a radio: the reconnect check replugs the pty.
        let dir = TempDir()
        let sim = try await SimProcess(["--pty", "--pty-link", dir.path("sim"), "--seed", "12"])
        let report = try await conformance(["serial://\(dir.path("sim"))", "--contacts", "\(DefaultMesh.nodeCount)"])
        #expect(report.passed == report.checks.count && report.passed >= 15)
        withExtendedLifetime((sim, dir)) {}
    }

    /// The BLE driver through Meshport's own LE host on an emulated controller, the radio a
    /// Bumble peripheral bridging NUS to `meshport sim` (Tools/BLE/world.py): pairing with the
    /// PIN, bonded reconnects for the 100 open/close cycles, and the sim closing its side mid-frame
    /// dropping the BLE link, as a radio that reboots.
    @Test func meshSimOverEmulatedBLE() async throws {
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0", "--seed", "13"])
        let simPort = try #require(sim.address.split(separator: ":").last.map(String.init))
        let world = try await BLEWorldProcess(["--bridge", "127.0.0.1:\(simPort)", "--drop-on-bridge-close"])
        let home = TempDir()
        let environment = ["XDG_DATA_HOME": home.path("data"), "XDG_CONFIG_HOME": home.path("config")]
        let report = try await conformance(
            ["ble://F0:00:00:00:00:01?pin=123456&hci=\(world.hci)", "--contacts", "\(DefaultMesh.nodeCount)",
             "--missing-url", "ble://F0:00:00:00:00:77?hci=\(world.hci)&timeout=1"],
            environment: environment, skipped: ["garbage and truncated input"])
        #expect(report.driver == "ble" && report.failed == 0 && report.passed >= 14, "\(world.log.suffix(3000))")
        // Paired once; the bond is kept where only the user can read it.
        let bonds = home.path("data") + "/meshport/ble/bonds.json"
        let mode = try FileManager.default.attributesOfItem(atPath: bonds)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(world.log.components(separatedBy: "pairing start").count == 2, "paired more than once")
        withExtendedLifetime((sim, world, home)) {}
    }

    @Test func cExampleLoopback() async throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755)])
        let report = try await conformance(
            ["loopback://conformance", "--missing-url", "loopback://missing"], environment: ["MESHPORT_PLUGIN_PATH": dir],
            skipped: ["garbage and truncated input", "APP_START -> SELF_INFO", "DEVICE_QUERY -> DEVICE_INFO",
                      "contact sync", "message drain", "DM with ACK"])
        #expect(report.driver == "loopback")
    }

    /// A device that is not there: failed checks, a table naming them, exit status 1.
    @Test func failuresAreReportedWithExitStatus() async throws {
        let run = try await runMeshport(["conformance", "tcp://127.0.0.1:1"])
        #expect(run.status == 1)
        #expect(run.out.contains("open/close x100") && run.out.contains("failed") && run.out.contains("connection refused"))
        let summary = run.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("tcp tcp://127.0.0.1:1: ") && !summary.contains(" 0 failed"), "\(summary)")
    }

    @Test func unknownSchemeAndBadURL() async throws {
        let none = try await runMeshport(["conformance", "lora://AA:BB"])
        #expect(none.status == 1 && none.err.contains("no driver for \"lora\""))
        let short = try await runMeshport(["conformance", "ble://AA:BB"])
        #expect(short.status == 1 && short.err.contains("ble needs the radio's address"), "\(short.err)")
        let bad = try await runMeshport(["conformance", "tcp://host:70000"])
        #expect(bad.status == 1 && bad.err.contains("\"70000\""))
    }
}
