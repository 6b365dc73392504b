import Testing
@testable import MeshUSB

/// FTDI setup and baud divisors (golden values worked out from the chips' divisor formulas;
/// the emulated FT232 in the USB guest confirms 115200 end to end, Docs/usb.md).
@Suite struct FTDITests {
    @Test func ft232rOpensWithResetLatencyLineAndNoFlowControl() throws {
        let chip = FTDI(bcdDevice: 0x0600, interfaceCount: 1)
        #expect(chip.variant == .ft232r)
        let channel = RecordingChannel()
        let plan = try chip.interfaces(in: vendorInterface)
        try chip.open(channel, plan: plan, line: LineSettings())
        #expect(channel.sent == [
            .out(0x40, 0x00, value: 0x0000, index: 0),  // reset
            .out(0x40, 0x09, value: 0x0001, index: 0),  // latency timer 1 ms
            .out(0x40, 0x04, value: 0x0008, index: 0),  // 8N1
            .out(0x40, 0x03, value: 0x001A, index: 0),  // 3 MHz / 26 = 115384 baud
            .out(0x40, 0x02, value: 0x0000, index: 0),  // no flow control
        ])
    }

    @Test func modemLinesOnlyWhenAsked() throws {
        let chip = FTDI(bcdDevice: 0x1000, interfaceCount: 1)
        #expect(chip.variant == .ftx)
        let channel = RecordingChannel()
        try chip.open(channel, plan: try chip.interfaces(in: vendorInterface), line: LineSettings(dtr: true, rts: false))
        #expect(channel.sent.last == .out(0x40, 0x01, value: 0x0301, index: 0))
        #expect(LineSettings(rts: true).modemLinesWithMask == 0x0202)
        #expect(LineSettings().modemLinesWithMask == nil)
    }

    @Test(arguments: [
        (300, UInt32(0x2710)), (9600, 0x4138), (19200, 0x809C), (57600, 0xC034), (115_200, 0x001A), (230_400, 0x000D),
        (460_800, 0x4006), (921_600, 0x8003), (2_000_000, 0x0001), (3_000_000, 0x0000),
    ])
    func fullSpeedDivisors(baud: Int, divisor: UInt32) throws {
        #expect(try FTDIBaud.divisor(baud: baud, variant: .ft232r) == divisor)
    }

    @Test func hiSpeedDivisorSetsBit17AndCarriesTheChannel() throws {
        // 120 MHz / 10 / 104.125 = 115246 baud; fraction 1/8 is code 3.
        #expect(try FTDIBaud.divisor(baud: 115_200, variant: .ft232h) == 0x2C068)
        let chip = FTDI(bcdDevice: 0x0900, interfaceCount: 1)
        let channel = RecordingChannel()
        try chip.open(channel, plan: try chip.interfaces(in: vendorInterface), line: LineSettings())
        #expect(channel.sent[3] == .out(0x40, 0x03, value: 0xC068, index: 0x0201))
        #expect(channel.sent[0].index == 1)
    }

    @Test func ratesOutsideTheChipAreRefused() {
        #expect(throws: USBError.self) { try FTDIBaud.divisor(baud: 4_000_000, variant: .ft232r) }
        #expect(throws: USBError.self) { try FTDIBaud.divisor(baud: 100, variant: .ftx) }
    }

    @Test func statusBytesLeaveEveryPacket() {
        let chip = FTDI(bcdDevice: 0x0600, interfaceCount: 1)
        // Two full 64-byte packets and a short one; each starts with the two status bytes.
        var transfer: [UInt8] = []
        var expected: [UInt8] = []
        for packet in 0..<3 {
            let body = (0..<(packet == 2 ? 10 : 62)).map { UInt8(truncatingIfNeeded: packet * 100 + $0) }
            transfer += [0x01, 0x60] + body
            expected += body
        }
        var out: [UInt8] = []
        transfer.withUnsafeBufferPointer { chip.payload($0, maxPacket: 64, into: &out) }
        #expect(out == expected)
        // A status-only packet (sent every latency period) carries nothing.
        out = []
        [UInt8]([0x01, 0x60]).withUnsafeBufferPointer { chip.payload($0, maxPacket: 64, into: &out) }
        #expect(out.isEmpty)
    }
}
