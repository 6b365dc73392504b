/// Silicon Labs CP210x (CP2102, CP2104, CP2105...), as the kernel's cp210x driver sets it up:
/// interface requests IFC_ENABLE, SET_BAUDRATE (32-bit rate), SET_LINE_CTL, and SET_MHS for
/// modem lines when asked. Closing purges the FIFOs and disables the UART, as cp210x_close does.
/// The chip's reset default has no handshaking, so flow control is not written.
public struct CP210x: SerialChip {
    public init() {}
    public var name: String { "CP210x" }

    enum Request {
        static let ifcEnable: UInt8 = 0x00
        static let setLineControl: UInt8 = 0x03
        static let setModemHandshake: UInt8 = 0x07
        static let purge: UInt8 = 0x12
        static let setBaudRate: UInt8 = 0x1E
    }

    public func open(_ channel: any ControlChannel, plan: InterfacePlan, line: LineSettings) throws(USBError) {
        guard (300...3_000_000).contains(line.baud) else { throw USBError(.invalidURL, "baud \(line.baud) is outside what a CP210x can do (300-3000000)") }
        let index = UInt16(plan.control)
        let rate = UInt32(line.baud)
        for setup in [
            ControlSetup.out(RequestType.vendorOutInterface, Request.ifcEnable, value: 0x0001, index: index),
            .out(RequestType.vendorOutInterface, Request.setBaudRate, value: 0, index: index,
                 data: [UInt8(rate & 0xFF), UInt8(rate >> 8 & 0xFF), UInt8(rate >> 16 & 0xFF), UInt8(rate >> 24)]),
            // Data bits in the high byte (8), parity 0 (none) and stop bits 0 (one) below.
            .out(RequestType.vendorOutInterface, Request.setLineControl, value: 0x0800, index: index),
        ] {
            _ = try channel.control(setup)
        }
        if let lines = line.modemLinesWithMask {
            _ = try channel.control(.out(RequestType.vendorOutInterface, Request.setModemHandshake, value: lines, index: index))
        }
    }

    public func close(_ channel: any ControlChannel, plan: InterfacePlan) {
        let index = UInt16(plan.control)
        // Best effort: after an unplug both fail, and there is nothing left to tidy.
        for setup in [ControlSetup.out(RequestType.vendorOutInterface, Request.purge, value: 0x000F, index: index),
                      .out(RequestType.vendorOutInterface, Request.ifcEnable, value: 0x0000, index: index)] {
            do { _ = try channel.control(setup) } catch { return }
        }
    }
}
