import Foundation
import MeshportTestSupport
import Testing

/// The usb:// plugin as the `meshport` binary loads it on the host. The driver's data path is
/// tested in a QEMU guest (Tools/USB/test-usb.sh); here: loading, scanning, and the errors a
/// user meets without the radio.
@Suite(.timeLimit(.minutes(1))) struct CLIUSBTests {
    @Test func theUSBDriverLoadsAsAPlugin() async throws {
        let plugins = try await runMeshport(["plugins", "--json"])
        #expect(plugins.status == 0, "\(plugins.err)")
        let loaded = try #require(try JSONSerialization.jsonObject(with: Data(plugins.out.utf8)) as? [String: Any])["loaded"] as? [[String: Any]]
        let usb = try #require(loaded?.first { $0["name"] as? String == "usb" }, "\(plugins.out)")
        #expect(usb["schemes"] as? [String] == ["usb"])
        #expect(usb["linkKind"] as? String == "stream")
        #expect((usb["path"] as? String)?.hasSuffix("libMeshportDriverUSB.so") == true)
    }

    @Test func scanningUSBAnswersWithWhatIsThere() async throws {
        let scan = try await runMeshport(["scan", "--scheme", "usb", "--json"])
        #expect(scan.status == 0, "\(scan.err)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(scan.out.utf8)) as? [String: Any])
        #expect((found["errors"] as? [Any])?.isEmpty == true, "\(scan.out)")
        for radio in found["radios"] as? [[String: Any]] ?? [] {
            #expect((radio["url"] as? String)?.hasPrefix("usb://") == true)
        }
    }

    @Test func aMissingRadioIsNotFoundAndSaysWhatToDo() async throws {
        let info = try await runMeshport(["info", "--radio", "usb://dead:beef?serial=NONE"])
        #expect(info.status == 5, "\(info.err)")
        #expect(info.err.contains("no USB device dead:beef serial NONE") && info.err.contains("meshport scan"), "\(info.err)")
    }

    @Test func aBadURLNamesTheBadPart() async throws {
        let info = try await runMeshport(["info", "--radio", "usb://0403:6001?baud=fast"])
        #expect(info.status == 64, "\(info.err)")
        #expect(info.err.contains("invalid transport URL \"usb://0403:6001?baud=fast\": baud \"fast\" is not a positive number"), "\(info.err)")
    }
}
