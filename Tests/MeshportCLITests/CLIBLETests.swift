import Foundation
import MeshportTestSupport
import Testing

/// The `meshport` binary over BLE as a user runs it: the radio found by `meshport scan`, a PIN
/// saved with `meshport ble pin`, the bond listed and forgotten; the radio a Bumble peripheral
/// bridged to `meshport sim` on an emulated controller (Tools/BLE/world.py).
@Suite(.timeLimit(.minutes(2))) struct CLIBLETests {
    @Test func scanPairInfoBondsAndForget() async throws {
        let world = try await CLIWorld(.tcp)
        let simPort = try #require(world.sim.address.split(separator: ":").last.map(String.init))
        let ble = try await BLEWorldProcess(["--bridge", "127.0.0.1:\(simPort)", "--noise"])
        var environment = world.environment
        environment["MESHPORT_BLE_HCI"] = ble.hci
        environment["MESHPORT_BLE_SCAN_SECONDS"] = "1"

        let scan = try await runMeshport(["scan", "--scheme", "ble", "--json"], environment: environment)
        #expect(scan.status == 0, "\(scan.err)")
        let found = try JSONSerialization.jsonObject(with: Data(scan.out.utf8)) as? [String: Any]
        let radios = found?["radios"] as? [[String: Any]] ?? []
        #expect(radios.map { $0["url"] as? String } == ["ble://F0:00:00:00:00:01"], "\(scan.out)")
        #expect(radios.first?["label"] as? String == "MeshCore-TEST")

        // No PIN in the URL and no terminal: a clear error, nothing paired.
        let url = "ble://F0:00:00:00:00:01?hci=\(ble.hci)"
        let refused = try await runMeshport(["info", "--radio", url], environment: environment)
        #expect(refused.status != 0 && refused.err.contains("requires pairing with its PIN"), "\(refused.err)")

        let saved = try await runMeshport(["ble", "pin", "F0:00:00:00:00:01", "123456"], environment: environment)
        #expect(saved.status == 0, "\(saved.err)")
        let config = try FileManager.default.attributesOfItem(atPath: world.dir.path("config") + "/meshport/ble.json")
        #expect(config[.posixPermissions] as? Int == 0o600)

        let info = try await runMeshport(["info", "--radio", url], environment: environment)
        #expect(info.status == 0 && info.out.contains("MeshSim"), "\(info.err)")

        let bonds = try await runMeshport(["ble", "bonds", "--json"], environment: environment)
        let list = try JSONSerialization.jsonObject(with: Data(bonds.out.utf8)) as? [[String: Any]] ?? []
        #expect(list.map { $0["address"] as? String } == ["F0:00:00:00:00:01"])
        #expect(list.first?["pairing"] as? String == "le-secure-connections")

        // Bonded: the next run encrypts without pairing.
        let again = try await runMeshport(["info", "--radio", url], environment: environment)
        #expect(again.status == 0)
        #expect(ble.log.components(separatedBy: "pairing start").count == 2, "paired twice")

        let forget = try await runMeshport(["ble", "forget", "F0:00:00:00:00:01"], environment: environment)
        #expect(forget.status == 0 && forget.out.contains("forgot the bond"))
        let none = try await runMeshport(["ble", "bonds"], environment: environment)
        #expect(none.out.contains("no bonds"))
        withExtendedLifetime((world, ble)) {}
    }

    /// No PIN anywhere but a terminal: asked there once, then bonded. `script` gives the
    /// command a controlling terminal, as a person's shell does.
    @Test func asksForThePINOnTheTerminal() async throws {
        let world = try await CLIWorld(.tcp)
        let simPort = try #require(world.sim.address.split(separator: ":").last.map(String.init))
        let ble = try await BLEWorldProcess(["--bridge", "127.0.0.1:\(simPort)"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = "'\(try meshportBinary().path)' info --radio 'ble://F0:00:00:00:00:01?hci=\(ble.hci)'"
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(world.environment) { $1 }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let reader = PipeReader(output.fileHandleForReading)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        for _ in 0..<1000 where !reader.current.contains("PIN for F0:00:00:00:00:01") { try await Task.sleep(for: .milliseconds(20)) }
        let prompted = reader.current.contains("PIN for F0:00:00:00:00:01")
        #expect(prompted, "\(reader.current)")
        try input.fileHandleForWriting.write(contentsOf: Data("123456\n".utf8))
        for _ in 0..<1000 where process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(process.terminationStatus == 0 && reader.current.contains("MeshSim"), "\(reader.current)")
        let bonds = try await runMeshport(["ble", "bonds"], environment: world.environment)
        #expect(bonds.out.contains("F0:00:00:00:00:01"))
        withExtendedLifetime((world, ble)) {}
    }

    @Test func badArgumentsAreUsageErrors() async throws {
        let world = try await CLIWorld(.tcp)
        let short = try await runMeshport(["ble", "pin", "F0:00:00:00:00:01", "12"], environment: world.environment)
        #expect(short.status == 64 && short.err.contains("6 digits"))
        let address = try await runMeshport(["ble", "forget", "F0:00"], environment: world.environment)
        #expect(address.status == 64 && address.err.contains("not a Bluetooth address"))
        // No controller at all: the scan says what is wrong and how to fix it.
        var environment = world.environment
        environment["MESHPORT_BLE_HCI"] = "tcp:127.0.0.1:1"
        let scan = try await runMeshport(["scan", "--scheme", "ble"], environment: environment)
        #expect(scan.status != 0 && scan.err.contains("nothing listens on 127.0.0.1:1"), "\(scan.err)")
    }
}
