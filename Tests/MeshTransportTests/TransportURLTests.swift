import Testing
@testable import MeshTransport

/// The built-in drivers beside the test runner, for URL checks through their validate entries.
private let builtIn: PluginLoader = {
    var loader = PluginLoader()
    loader.load(directories: [(binDirectory, true)])
    return loader
}()

/// Parses `text` and has its driver check it, as `RadioTarget.resolve` does.
private func checked(_ text: String) throws(TransportError) -> TransportURL {
    try builtIn.target(try TransportURL.parsed(text)).url
}

@Suite struct TransportURLTests {
    @Test func tcp() throws {
        let u = try checked("tcp://192.168.1.20:5000")
        #expect(u.scheme == "tcp" && u.authority == "192.168.1.20:5000")
        #expect(try u.hostAndPort() == ("192.168.1.20", 5000))
        #expect(try checked("tcp://radio.local").hostAndPort() == ("radio.local", nil))
        #expect(try checked("tcp://[::1]:5001").hostAndPort() == ("::1", 5001))
    }

    @Test func serialAndQuery() throws {
        let u = try checked("serial:///dev/ttyACM0?baud=115200&dtr=off")
        #expect(u.scheme == "serial" && u.authority.isEmpty && u.path == "/dev/ttyACM0")
        #expect(u.parameter("baud") == "115200" && u.parameter("dtr") == "off")
    }

    /// The parser knows no scheme: colons in an authority are the driver's to read.
    @Test func pluginSchemesKeepTheirAuthority() throws {
        let usb = try checked("usb://10c4:ea60?serial=0001")
        #expect(usb.authority == "10c4:ea60" && usb.parameter("serial") == "0001")
        let ble = try checked("ble://C0:FF:EE:00:00:01?pin=123456&hci=tcp:127.0.0.1:9001")
        #expect(ble.authority == "C0:FF:EE:00:00:01" && ble.parameter("hci") == "tcp:127.0.0.1:9001")
        let other = try TransportURL("lora://AA:BB/x?y=%41+b")
        #expect(other.authority == "AA:BB" && other.path == "/x" && other.parameter("y") == "A b")
    }

    /// Parser errors and each driver's own, through the C ABI: the URL, the bad part quoted, why.
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
        ("tcp://h?timeout=soon", "soon"),
        ("ble://F0:00:00:00:01", "F0:00:00:00:01"),
        ("ble://F0:00:00:00:00:0G", "F0:00:00:00:00:0G"),
        ("ble://F0:00:00:00:00:01?pin=12345", "12345"),
        ("ble://F0:00:00:00:00:01?pin=abcdef", "abcdef"),
        ("ble://F0:00:00:00:00:01?type=static", "static"),
        ("ble://F0:00:00:00:00:01?write=fast", "fast"),
        ("ble://F0:00:00:00:00:01?timeout=0", "0"),
        ("ble://F0:00:00:00:00:01?passkey=1", "passkey"),
        ("usb://0403:6001?baud=fast", "fast"),
        ("usb://6001", "6001"),
    ])
    func errorsQuoteTheBadPart(text: String, part: String) {
        do {
            _ = try checked(text)
            Issue.record("\(text) was accepted")
        } catch let .invalidURL(url, quoted, reason) {
            #expect(url == text)
            #expect(!reason.isEmpty)
            // The parser names the part; a driver quotes it in its message (the host quotes the URL).
            let shown = quoted == url ? reason : "\"\(quoted)\": \(reason)"
            #expect(part == text || shown.contains("\"\(part)\""), "\(shown)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
