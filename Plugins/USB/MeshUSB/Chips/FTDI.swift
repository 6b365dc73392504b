/// FTDI FT232R, FT-X, FT232BM and the Hi-Speed parts, set up as the kernel's ftdi_sio does:
/// reset, latency timer, 8N1, baud divisor, flow control off. Every IN packet starts with two
/// modem-status bytes, also when it carries nothing else (sent each latency period).
public struct FTDI: SerialChip {
    public enum Variant: String, Sendable { case ft232bm = "FT232BM", ft232r = "FT232R", ftx = "FT-X", ft2232c = "FT2232C", ft2232h = "FT2232H", ft4232h = "FT4232H", ft232h = "FT232H" }

    public let variant: Variant
    /// 0 on single-channel full-speed chips (wIndex 0, as ftdi_sio sends there); the Hi-Speed
    /// and multi-channel parts take 1 + interface number (channel A = 1).
    public let channel: UInt16

    /// `bcdDevice` tells the chip apart, as in ftdi_sio's ftdi_determine_type.
    public init(bcdDevice: UInt16, interfaceCount: Int, interfaceNumber: Int = 0) {
        switch bcdDevice {
        case 0x0500: variant = .ft2232c
        case 0x0600: variant = .ft232r
        case 0x0700: variant = .ft2232h
        case 0x0800: variant = .ft4232h
        case 0x0900: variant = .ft232h
        case 0x1000: variant = .ftx
        default: variant = .ft232bm
        }
        let hiSpeed = [.ft2232h, .ft4232h, .ft232h].contains(variant)
        channel = interfaceCount > 1 || hiSpeed ? UInt16(1 + interfaceNumber) : 0
    }

    public var name: String { "FTDI \(variant.rawValue)" }

    enum Request {
        static let reset: UInt8 = 0x00
        static let modemControl: UInt8 = 0x01
        static let setFlowControl: UInt8 = 0x02
        static let setBaudRate: UInt8 = 0x03
        static let setData: UInt8 = 0x04
        static let setLatencyTimer: UInt8 = 0x09
    }

    public func open(_ channel: any ControlChannel, plan: InterfacePlan, line: LineSettings) throws(USBError) {
        guard (1...255).contains(line.latencyMs) else { throw USBError(.invalidURL, "latency \(line.latencyMs) ms is outside 1-255") }
        let divisor = try FTDIBaud.divisor(baud: line.baud, variant: variant)
        // Multi-channel chips carry the channel in wIndex's low byte and divisor bits 16+ above it.
        let baudIndex = self.channel == 0 ? UInt16(divisor >> 16) : UInt16(truncatingIfNeeded: (divisor >> 16) << 8) | self.channel
        for setup in [
            vendor(Request.reset, 0),
            vendor(Request.setLatencyTimer, UInt16(line.latencyMs)),
            vendor(Request.setData, 0x0008),  // 8 data bits, no parity, 1 stop bit
            ControlSetup.out(RequestType.vendorOutDevice, Request.setBaudRate, value: UInt16(truncatingIfNeeded: divisor), index: baudIndex),
            vendor(Request.setFlowControl, 0),
        ] {
            _ = try channel.control(setup)
        }
        if let lines = line.modemLinesWithMask { _ = try channel.control(vendor(Request.modemControl, lines)) }
    }

    private func vendor(_ request: UInt8, _ value: UInt16) -> ControlSetup {
        .out(RequestType.vendorOutDevice, request, value: value, index: channel)
    }

    public func payload(_ bytes: UnsafeBufferPointer<UInt8>, maxPacket: Int, into out: inout [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + maxPacket, bytes.count)
            if end - offset > 2 { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(offset + 2)..<end])) }
            offset = end
        }
    }
}
