/// `usb://VID:PID[?serial=S&bus=N&port=P.Q&baud=115200&dtr=on|off&rts=on|off&latency=MS]`.
/// `port` is the hub port path as in sysfs after "BUS-" (1.4 = port 4 of the hub on port 1).
public struct USBOptions: Sendable, Equatable {
    public var vendorID: UInt16
    public var productID: UInt16
    public var serial: String?
    public var bus: Int?
    public var portPath: [Int]?
    public var line: LineSettings

    public static let known = ["serial", "bus", "port", "baud", "dtr", "rts", "latency"]

    /// `device` is the part after usb://, `query` its parameters in order.
    public init(device: String, query: [(name: String, value: String)]) throws(USBError) {
        let ids = device.split(separator: ":", omittingEmptySubsequences: false)
        guard ids.count == 2, ids.allSatisfy({ $0.count == 4 }), let vid = UInt16(ids[0], radix: 16), let pid = UInt16(ids[1], radix: 16) else {
            throw USBError(.invalidURL, "usb needs VID:PID in hex, e.g. usb://0403:6001, not \"\(device)\"", fix: "meshport scan lists USB radios with their URLs")
        }
        vendorID = vid
        productID = pid
        line = LineSettings()
        for (name, value) in query {
            switch name {
            case "serial":
                guard !value.isEmpty else { throw USBError(.invalidURL, "serial is empty") }
                serial = value
            case "bus":
                guard let b = Int(value), (1...255).contains(b) else { throw USBError(.invalidURL, "bus \"\(value)\" is not a USB bus number (1-255)") }
                bus = b
            case "port":
                let parts = value.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
                guard !parts.isEmpty, parts.count <= 7, parts.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 255 }) else {
                    throw USBError(.invalidURL, "port \"\(value)\" is not a hub port path such as 1 or 1.4")
                }
                portPath = parts.compactMap { $0 }
            case "baud":
                guard let b = Int(value), b > 0 else { throw USBError(.invalidURL, "baud \"\(value)\" is not a positive number") }
                line.baud = b
            case "dtr", "rts":
                guard let on = Self.lineLevel(value) else { throw USBError(.invalidURL, "\(name) is on or off, not \"\(value)\"") }
                if name == "dtr" { line.dtr = on } else { line.rts = on }
            case "latency":
                guard let ms = Int(value), (1...255).contains(ms) else { throw USBError(.invalidURL, "latency \"\(value)\" is not 1-255 ms") }
                line.latencyMs = ms
            default:
                throw USBError(.invalidURL, "unknown parameter \"\(name)\" for usb; known: \(Self.known.joined(separator: ", "))")
            }
        }
    }

    private static func lineLevel(_ v: String) -> Bool? {
        switch v {
        case "on", "1": true
        case "off", "0": false
        default: nil
        }
    }

    public var id: String { usbID(vendorID, productID) }

    /// A serial number as a URL query value: what the URL parser would read otherwise
    /// (`&`, `=`, `%`, `+`, spaces, non-ASCII) is percent-encoded.
    public static func queryValue(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || "-._~:/".contains(c)) {
                out.append(c)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// "0403:6001 (serial A10K5XYZ)" for messages.
    public var describe: String {
        var text = id
        if let serial { text += " serial \(serial)" }
        if let bus { text += " bus \(bus)" }
        if let portPath { text += " port \(portPath.map(String.init).joined(separator: "."))" }
        return text
    }
}
