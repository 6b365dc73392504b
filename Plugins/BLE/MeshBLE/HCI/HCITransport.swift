/// The controller end of HCI: packets out, packets in (Core Vol 4 Parts A and E).
/// Implementations: H4 over TCP (emulators), H4 over a UART, and the BlueZ HCI user channel.
public protocol HCITransport: AnyObject, Sendable {
    /// "tcp:127.0.0.1:9001", "hci0", ...
    var spec: String { get }
    /// Starts the reader: `deliver` gets packets in order, from one thread, until the transport
    /// fails (then once with the error) or `close` is called (then never again).
    func start(deliver: @escaping @Sendable (Result<[HCIPacket], HCITransportError>) -> Void) throws(HCITransportError)
    func send(_ packet: HCIPacket) throws(HCITransportError)
    /// Stops the reader (waiting for it) and releases the device.
    func close()
}

/// A controller that cannot be reached or stopped answering; says what to do.
public struct HCITransportError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case invalidSpec, notFound, busy, permissionDenied, unsupported, lost, other
    }

    public let kind: Kind
    public let message: String
    /// What the user can run or change, when known.
    public let fix: String?

    public init(_ kind: Kind, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    public var description: String { fix.map { "\(message); \($0)" } ?? message }
}

/// Opens the controller named by a `hci=` value:
/// `hci0`, `hci:0` or `usb:0` (the BlueZ HCI user channel on adapter 0), `tcp:HOST:PORT`
/// (H4 over TCP, e.g. an emulator), `uart:/dev/ttyUSB1[@BAUD]` (H4 over a serial port, 1,000,000
/// baud with RTS/CTS unless given).
public func openHCITransport(_ spec: String) throws(HCITransportError) -> any HCITransport {
    if spec.hasPrefix("tcp:") {
        let rest = spec.dropFirst(4)
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
            throw HCITransportError(.invalidSpec, "hci=\(spec): write tcp:HOST:PORT, e.g. tcp:127.0.0.1:9001")
        }
        return try H4TCPTransport.connect(host: String(rest[..<colon]), port: port, spec: spec)
    }
    if spec.hasPrefix("uart:") {
        let rest = String(spec.dropFirst(5))
        let parts = rest.split(separator: "@", maxSplits: 1).map(String.init)
        guard let path = parts.first, path.hasPrefix("/") else {
            throw HCITransportError(.invalidSpec, "hci=\(spec): write uart:/dev/ttyUSB1 or uart:/dev/ttyUSB1@115200")
        }
        var baud = 1_000_000
        if parts.count == 2 {
            guard let b = Int(parts[1]), b > 0 else { throw HCITransportError(.invalidSpec, "hci=\(spec): '\(parts[1])' is not a baud rate") }
            baud = b
        }
        return try H4UARTTransport.open(path: path, baud: baud, spec: spec)
    }
    if let index = userChannelAdapter(spec) {
        return try HCIUserChannel.open(adapter: index, spec: spec)
    }
    throw HCITransportError(.invalidSpec, "hci=\(spec) names no controller: use hci0 (BlueZ adapter 0 through the HCI user channel), tcp:HOST:PORT (an H4 emulator) or uart:/dev/ttyUSB1 (a serial HCI controller)")
}

/// The kernel adapter a `hci=` value takes through the HCI user channel: 0 for `hci0`, `hci:0` or
/// `usb:0`; nil for any other controller.
public func userChannelAdapter(_ spec: String) -> UInt16? {
    for prefix in ["hci:", "usb:", "hci"] where spec.hasPrefix(prefix) {
        return UInt16(spec.dropFirst(prefix.count))
    }
    return nil
}
