import Testing
@testable import MeshTransport

@Suite struct TransportURLTests {
    @Test func tcp() throws {
        let u = try TransportURL("tcp://192.168.1.20:5000")
        #expect(u.scheme == "tcp" && u.host == "192.168.1.20" && u.port == 5000)
        try u.validate()
        let d = try TransportURL("tcp://radio.local")
        #expect(d.host == "radio.local" && d.port == nil)
        let v6 = try TransportURL("tcp://[::1]:5001")
        #expect(v6.host == "::1" && v6.port == 5001)
    }

    @Test func serialAndQuery() throws {
        let u = try TransportURL("serial:///dev/ttyACM0?baud=115200&dtr=off")
        #expect(u.scheme == "serial" && u.host.isEmpty && u.path == "/dev/ttyACM0")
        #expect(u.parameter("baud") == "115200" && u.parameter("dtr") == "off")
        try u.validate()
    }

    @Test func pluginSchemesKeepTheirAuthority() throws {
        let usb = try TransportURL("usb://10c4:ea60?serial=0001")
        #expect(usb.host == "10c4:ea60" && usb.port == nil && usb.parameter("serial") == "0001")
        let ble = try TransportURL("ble://C0:FF:EE:00:00:01?pin=123456&hci=tcp:127.0.0.1:9001")
        #expect(ble.host == "C0:FF:EE:00:00:01" && ble.parameter("hci") == "tcp:127.0.0.1:9001")
        try ble.validate()
    }

    @Test(arguments: [
        ("192.168.1.20:5000", "192.168.1.20:5000"),
        ("tcp://host:70000", "70000"),
        ("tcp://host:abc", "abc"),
        ("1tcp://host", "1tcp"),
        ("serial://dev/ttyACM0", "dev"),
        ("serial:///dev/ttyACM0?baud=fast", "fast"),
        ("serial:///dev/ttyACM0?speed=9600", "speed"),
        ("serial:///dev/ttyACM0?dtr=maybe", "maybe"),
        ("tcp://?timeout=1", "tcp://?timeout=1"),
        ("tcp://h?novalue", "novalue"),
        ("ble://F0:00:00:00:01", "F0:00:00:00:01"),
        ("ble://F0:00:00:00:00:0G", "F0:00:00:00:00:0G"),
        ("ble://F0:00:00:00:00:01?pin=12345", "12345"),
        ("ble://F0:00:00:00:00:01?pin=abcdef", "abcdef"),
        ("ble://F0:00:00:00:00:01?type=static", "static"),
        ("ble://F0:00:00:00:00:01?write=fast", "fast"),
        ("ble://F0:00:00:00:00:01?timeout=0", "0"),
        ("ble://F0:00:00:00:00:01?passkey=1", "passkey"),
    ])
    func errorsQuoteTheBadPart(text: String, part: String) {
        do {
            let u = try TransportURL(text)
            try u.validate()
            Issue.record("\(text) was accepted")
        } catch let TransportError.invalidURL(url, quoted, reason) {
            #expect(url == text)
            #expect(quoted == part, "\(reason)")
            #expect(!reason.isEmpty)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
