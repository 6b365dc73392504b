import Testing
@testable import MeshUSB

/// CP210x setup: interface requests (request type 0x41) in the order the chip needs them. The
/// CP2102 radio model (Tools/USB/Radio/cp210x.py) answers the same requests end to end in the
/// USB guest (Docs/usb.md).
@Suite struct CP210xTests {
    @Test func opensWithIfcEnableBaudAndLineControl() throws {
        let chip = CP210x()
        let channel = RecordingChannel()
        let plan = try chip.interfaces(in: vendorInterface)
        try chip.open(channel, plan: plan, line: LineSettings())
        #expect(channel.sent == [
            .out(0x41, 0x00, value: 0x0001, index: 0),  // IFC_ENABLE: UART on
            .out(0x41, 0x1E, value: 0, index: 0, data: [0x00, 0xC2, 0x01, 0x00]),  // SET_BAUDRATE 115200
            .out(0x41, 0x03, value: 0x0800, index: 0),  // SET_LINE_CTL 8N1
        ])
    }

    @Test func modemHandshakeWritesOnlyTheLinesGiven() throws {
        let channel = RecordingChannel()
        try CP210x().open(channel, plan: try CP210x().interfaces(in: vendorInterface), line: LineSettings(baud: 921_600, dtr: false, rts: true))
        #expect(channel.sent[1].data == [0x00, 0x10, 0x0E, 0x00])
        #expect(channel.sent.last == .out(0x41, 0x07, value: 0x0302, index: 0))
    }

    @Test func closePurgesAndDisables() throws {
        let channel = RecordingChannel()
        CP210x().close(channel, plan: try CP210x().interfaces(in: vendorInterface))
        #expect(channel.sent == [.out(0x41, 0x12, value: 0x000F, index: 0), .out(0x41, 0x00, value: 0x0000, index: 0)])
    }

    @Test func aStalledRequestIsATypedError() throws {
        let channel = RecordingChannel { _ throws(USBError) in throw RecordingChannel.stall }
        #expect(throws: USBError.self) { try CP210x().open(channel, plan: try CP210x().interfaces(in: vendorInterface), line: LineSettings()) }
        #expect(channel.sent.count == 1)
    }
}
