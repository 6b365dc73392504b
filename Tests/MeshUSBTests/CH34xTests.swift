import Testing
@testable import MeshUSB

/// CH340/CH341 setup as the chip expects it: version read, break-register probe, SERIAL_INIT,
/// prescaler/divisor, LCR. The CH340 radio model (Tools/USB/Radio/ch341.py) answers the same
/// requests end to end in the USB guest (Docs/usb.md).
@Suite struct CH34xTests {
    func channel(version: UInt8, breakStalls: Bool = false) -> RecordingChannel {
        RecordingChannel { setup throws(USBError) in
            switch setup.request {
            case 0x5F: return [version, 0x00]
            case 0x95: if breakStalls { throw RecordingChannel.stall }; return [0x00, 0x00]
            default: return []
            }
        }
    }

    @Test func opensAsCh341Does() throws {
        let c = channel(version: 0x31)
        try CH34x().open(c, plan: try CH34x().interfaces(in: vendorInterface), line: LineSettings())
        #expect(c.sent == [
            .in(0xC0, 0x5F, value: 0, index: 0, length: 2),  // READ_VERSION
            .in(0xC0, 0x95, value: 0x0005, index: 0, length: 2),  // break register probe
            .out(0x40, 0xA1, value: 0, index: 0),  // SERIAL_INIT
            .out(0x40, 0x9A, value: 0x1312, index: 0xCC83),  // prescaler/divisor for 115200, bit 7: no buffering
            .out(0x40, 0x9A, value: 0x2518, index: 0x00C3),  // LCR: RX, TX, 8N1
        ])
    }

    @Test func olderChipsGetNoLineControlWrite() throws {
        let c = channel(version: 0x27)
        try CH34x().open(c, plan: try CH34x().interfaces(in: vendorInterface), line: LineSettings())
        #expect(c.sent.count == 4)
        #expect(c.sent.allSatisfy { $0.value != 0x2518 })
    }

    @Test func modemControlIsActiveLow() throws {
        let c = channel(version: 0x31)
        try CH34x().open(c, plan: try CH34x().interfaces(in: vendorInterface), line: LineSettings(dtr: true))
        #expect(c.sent.last == .out(0x40, 0xA4, value: ~UInt16(0x20), index: 0))
    }

    @Test(arguments: [(1200, UInt16(0xB201)), (4800, 0x6402), (9600, 0xB202), (19200, 0xD902), (115_200, 0xCC03), (921_600, 0xF307)])
    func divisors(baud: Int, value: UInt16) {
        #expect(CH34xBaud.divisor(baud: baud, limitedPrescaler: false) == value)
    }

    @Test func limitedPrescalerChipsUseTheLowerClock() throws {
        // An odd divisor keeps the higher clock on a full chip; a chip that stalls the break
        // register must halve it (the limited-prescaler case in Plugins/USB/MeshUSB/Chips/CH34x.swift).
        #expect(CH34xBaud.divisor(baud: 14851, limitedPrescaler: false) == 0x9B06)
        #expect(CH34xBaud.divisor(baud: 14851, limitedPrescaler: true) == 0xCD02)
        let c = channel(version: 0x31, breakStalls: true)
        try CH34x().open(c, plan: try CH34x().interfaces(in: vendorInterface), line: LineSettings(baud: 14851))
        #expect(c.sent[3].index == 0xCD82)
    }

    @Test func ratesOutsideTheChipAreRefused() {
        #expect(CH34xBaud.divisor(baud: 10, limitedPrescaler: false) == nil)
        #expect(CH34xBaud.divisor(baud: 4_000_000, limitedPrescaler: false) == nil)
        #expect(throws: USBError.self) { try CH34x().open(channel(version: 0x31), plan: try CH34x().interfaces(in: vendorInterface), line: LineSettings(baud: 4_000_000)) }
    }
}
