import Foundation
import MeshTransportURL
import MeshportTestSupport
import Testing
@testable import MeshUSB

@Suite struct USBOptionsTests {
    @Test func parsesEveryParameter() throws {
        let o = try USBOptions(device: "10c4:EA60", query: [("serial", "0001"), ("bus", "3"), ("port", "1.4"), ("baud", "921600"),
                                                            ("dtr", "off"), ("rts", "on"), ("latency", "16")])
        #expect(o.vendorID == 0x10C4 && o.productID == 0xEA60)
        #expect(o.serial == "0001" && o.bus == 3 && o.portPath == [1, 4])
        #expect(o.line == LineSettings(baud: 921_600, dtr: false, rts: true, latencyMs: 16))
        #expect(o.describe == "10c4:ea60 serial 0001 bus 3 port 1.4")
    }

    @Test(arguments: [
        ("0403", [(String, String)]()), ("0403:60011", []), ("zzzz:6001", []), ("0403:6001", [("baud", "fast")]),
        ("0403:6001", [("port", "1..2")]), ("0403:6001", [("dtr", "high")]), ("0403:6001", [("latency", "0")]), ("0403:6001", [("speed", "1")]),
    ])
    func refusesWhatIsWrongAndSaysWhat(device: String, query: [(String, String)]) {
        #expect(throws: USBError.self) { try USBOptions(device: device, query: query.map { (name: $0.0, value: $0.1) }) }
    }

    @Test(arguments: ["A10K5XYZ", "1-0000:00:02.0-1", "a&b=c", "50%+1 x", "Zürich"])
    func aSerialNumberSurvivesTheURL(serial: String) throws {
        let url = try TransportURL("usb://0403:6001?serial=\(USBOptions.queryValue(serial))&baud=115200")
        let options = try USBOptions(device: url.authority, query: url.query)
        #expect(options.serial == serial)
        #expect(options.line.baud == 115_200)
    }

    @Test func theUdevRuleCoversEveryKnownDevice() throws {
        let rules = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Tools/USB/99-meshport-usb.rules").standardized, encoding: .utf8)
        for device in KnownDevice.all {
            let id = usbID(device.vendorID, device.productID).split(separator: ":")
            #expect(rules.contains("ATTR{idVendor}==\"\(id[0])\", ATTR{idProduct}==\"\(id[1])\""), "\(device.label) missing from the udev rule")
        }
    }
}
