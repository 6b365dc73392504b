/// One USB control transfer's setup packet (USB 2.0 9.3). Chips configure themselves only
/// through `ControlChannel`, so their sequences are tested by recording them.
public struct ControlSetup: Sendable, Equatable, CustomStringConvertible {
    public var requestType: UInt8
    public var request: UInt8
    public var value: UInt16
    public var index: UInt16
    /// Bytes sent (host to device) or expected (device to host).
    public var data: [UInt8]
    public var inLength: Int

    public static func out(_ requestType: UInt8, _ request: UInt8, value: UInt16, index: UInt16, data: [UInt8] = []) -> ControlSetup {
        ControlSetup(requestType: requestType, request: request, value: value, index: index, data: data, inLength: 0)
    }

    public static func `in`(_ requestType: UInt8, _ request: UInt8, value: UInt16, index: UInt16, length: Int) -> ControlSetup {
        ControlSetup(requestType: requestType, request: request, value: value, index: index, data: [], inLength: length)
    }

    public var isIn: Bool { requestType & 0x80 != 0 }

    public var description: String {
        func hex<T: BinaryInteger>(_ v: T, _ width: Int) -> String {
            let s = String(v, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var text = "\(hex(requestType, 2)) \(hex(request, 2)) value \(hex(value, 4)) index \(hex(index, 4))"
        if isIn { text += " in \(inLength)" } else if !data.isEmpty { text += " data " + data.map { hex($0, 2).dropFirst(2) }.joined(separator: " ") }
        return text
    }
}

/// bmRequestType values the chips use (direction | type | recipient).
public enum RequestType {
    public static let vendorOutDevice: UInt8 = 0x40
    public static let vendorInDevice: UInt8 = 0xC0
    public static let vendorOutInterface: UInt8 = 0x41
    public static let vendorInInterface: UInt8 = 0xC1
    public static let classOutInterface: UInt8 = 0x21
}

/// Where chips send their requests: libusb on a device, or a recorder in tests.
public protocol ControlChannel {
    /// Sends `setup`; returns the bytes read for an IN request (possibly fewer than asked).
    func control(_ setup: ControlSetup) throws(USBError) -> [UInt8]
}
