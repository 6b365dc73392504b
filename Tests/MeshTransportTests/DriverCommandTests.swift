import Foundation
import MeshportTestSupport
import Testing

/// `meshport plugins` and `meshport scan` as a person runs them.
@Suite(.timeLimit(.minutes(1))) struct DriverCommandTests {
    @Test func pluginsListsLoadedAndRefusedDrivers() async throws {
        let dir = try pluginDirectory([
            (builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755),
            (builtLibrary("MeshportTestBadABI"), "libbadabi.so", 0o755),
            (builtLibrary("MeshportTestShortDescriptor"), "libshort.so", 0o755),
        ])
        let run = try await runMeshport(["plugins", "--json"], environment: ["MESHPORT_PLUGIN_PATH": dir])
        #expect(run.status == 0, "\(run.err)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let loaded = try #require(doc["loaded"] as? [[String: Any]])
        #expect(Set(loaded.compactMap { $0["name"] as? String }) == ["tcp", "serial", "ble", "usb", "loopback"])
        let loopback = try #require(loaded.first { $0["name"] as? String == "loopback" })
        #expect(loopback["linkKind"] as? String == "packet" && loopback["schemes"] as? [String] == ["loopback"])
        #expect(loopback["abi"] as? String == "1.2" && loopback["path"] as? String == "\(dir)/libloopback.so")
        let ble = try #require(loaded.first { $0["name"] as? String == "ble" })
        #expect(ble["capabilities"] as? [String] == ["pairing"] && loopback["capabilities"] as? [String] == [])
        let refused = try #require(doc["refused"] as? [[String: String]])
        #expect(refused.count == 2 && refused[0]["path"] == "\(dir)/libbadabi.so" && refused[0]["reason"]?.contains("majors differ") == true)
        #expect(refused[1]["path"] == "\(dir)/libshort.so" && refused[1]["reason"]?.contains("smaller than the ABI 1.0 descriptor") == true)
        #expect((doc["searchPath"] as? [String])?.last == dir)

        let table = try await runMeshport(["plugins"], environment: ["MESHPORT_PLUGIN_PATH": dir])
        #expect(table.out.contains("loopback") && table.out.contains("refused") && table.out.contains("majors differ"))
        #expect(table.out.contains("capabilities") && table.out.contains("serial console") && table.out.contains("smaller than the ABI 1.0 descriptor"))
    }

    /// A person runs `meshport` found on the PATH, from any folder: the built-in drivers beside
    /// the executable still load (argv[0] is then only "meshport").
    @Test func builtInDriversLoadWhenRunFromThePATH() async throws {
        let binary = try meshportBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd / && exec meshport plugins --json"]
        process.environment = ["PATH": binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let out = Pipe()
        process.standardOutput = out
        let reader = PipeReader(out.fileHandleForReading)
        try process.run()
        await waitForExit(process)
        let doc = try JSONSerialization.jsonObject(with: Data(try await reader.fullText().utf8)) as? [String: Any]
        let loaded = (doc?["loaded"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(loaded).isSuperset(of: ["tcp", "serial", "ble"]), "\(String(describing: doc))")
    }

    /// Serial discovery over a copied /dev and /sys tree: a by-id link and a bare ttyACM,
    /// each with the USB ids, maker and product read from sysfs.
    @Test func scanFindsSerialRadios() async throws {
        let root = TempDir()
        let r = root.url.path
        let usb = "\(r)/sys/devices/pci0000:00/usb1/1-1"
        for dir in ["\(r)/dev/serial/by-id", "\(usb)/1-1:1.0/ttyUSB0", "\(r)/sys/devices/pci0000:00/usb1/1-2/1-2:1.0/ttyACM0", "\(r)/sys/class/tty/ttyUSB0", "\(r)/sys/class/tty/ttyACM0"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        for (file, text) in [("idVendor", "10c4"), ("idProduct", "ea60"), ("manufacturer", "Silicon Labs"), ("product", "CP2102 USB to UART"), ("serial", "0001")] {
            try "\(text)\n".write(toFile: "\(usb)/\(file)", atomically: false, encoding: .utf8)
        }
        let fm = FileManager.default
        for node in ["ttyUSB0", "ttyACM0", "ttyS0"] {  // ttyS0: a built-in UART, not listed
            guard fm.createFile(atPath: "\(r)/dev/\(node)", contents: nil) else { throw ProcessFailure("cannot create \(r)/dev/\(node)") }
        }
        try fm.createSymbolicLink(atPath: "\(r)/dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0", withDestinationPath: "../../ttyUSB0")
        try fm.createSymbolicLink(atPath: "\(r)/sys/class/tty/ttyUSB0/device", withDestinationPath: "../../../devices/pci0000:00/usb1/1-1/1-1:1.0")
        try fm.createSymbolicLink(atPath: "\(r)/sys/class/tty/ttyACM0/device", withDestinationPath: "../../../devices/pci0000:00/usb1/1-2/1-2:1.0")

        let run = try await runMeshport(["scan", "--scheme", "serial", "--json"], environment: ["MESHPORT_SERIAL_ROOT": r])
        #expect(run.status == 0, "\(run.err)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let radios = try #require(doc["radios"] as? [[String: String]])
        #expect(radios.map { $0["url"] } == ["serial:///dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0", "serial:///dev/ttyACM0"])
        #expect(radios.first?["details"] == "/dev/ttyUSB0, 10c4:ea60, Silicon Labs, CP2102 USB to UART, serial 0001")
        #expect(radios.last?["details"] == "/dev/ttyACM0" && radios.allSatisfy { $0["driver"] == "serial" })

        let table = try await runMeshport(["scan", "--scheme", "serial"], environment: ["MESHPORT_SERIAL_ROOT": r])
        #expect(table.out.contains("usb-Silicon_Labs_CP2102-if00-port0") && table.out.contains("10c4:ea60"))
        let none = try await runMeshport(["scan", "--scheme", "serial"], environment: ["MESHPORT_SERIAL_ROOT": root.path("empty")])
        #expect(none.status == 0 && none.out.contains("no radios found"))
    }
}
