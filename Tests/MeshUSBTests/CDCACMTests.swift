import Testing
@testable import MeshUSB

@Suite struct CDCACMTests {
    /// An ESP32-S3's USB Serial/JTAG: CDC communications + data, then a vendor JTAG interface.
    let composite = USBConfiguration(interfaces: [
        USBInterface(number: 0, interfaceClass: 0x02, subclass: 0x02, endpoints: [USBEndpoint(address: 0x82, attributes: 0x03, maxPacketSize: 64)]),
        USBInterface(number: 1, interfaceClass: 0x0A, endpoints: [USBEndpoint(address: 0x01, maxPacketSize: 64), USBEndpoint(address: 0x81, maxPacketSize: 64)]),
        USBInterface(number: 2, interfaceClass: 0xFF, endpoints: [USBEndpoint(address: 0x02, maxPacketSize: 64), USBEndpoint(address: 0x83, maxPacketSize: 64)]),
    ])

    @Test func claimsCommunicationsAndDataInterfaces() throws {
        let plan = try CDCACM().interfaces(in: composite)
        #expect(plan.claim == [0, 1])
        #expect(plan.control == 0)
        #expect(plan.bulkIn.address == 0x81)
        #expect(plan.bulkOut.address == 0x01)
    }

    @Test func setsLineCodingAndRaisesDTRAndRTS() throws {
        let channel = RecordingChannel()
        try CDCACM().open(channel, plan: try CDCACM().interfaces(in: composite), line: LineSettings())
        #expect(channel.sent == [
            .out(0x21, 0x20, value: 0, index: 0, data: [0x00, 0xC2, 0x01, 0x00, 0x00, 0x00, 0x08]),
            .out(0x21, 0x22, value: 0x0003, index: 0),
        ])
        let off = RecordingChannel()
        try CDCACM().open(off, plan: try CDCACM().interfaces(in: composite), line: LineSettings(dtr: false))
        #expect(off.sent.last?.value == 0x0002)
    }

    @Test func stalledClassRequestsAreTolerated() throws {
        let channel = RecordingChannel { _ throws(USBError) in throw RecordingChannel.stall }
        try CDCACM().open(channel, plan: try CDCACM().interfaces(in: composite), line: LineSettings())
        #expect(channel.sent.count == 2)
        let gone = RecordingChannel { _ throws(USBError) in throw USBError(.unplugged, "gone") }
        #expect(throws: USBError.self) { try CDCACM().open(gone, plan: try CDCACM().interfaces(in: composite), line: LineSettings()) }
    }

    @Test func aDeviceWithoutDataInterfaceIsRefused() {
        #expect(throws: USBError.self) { try CDCACM().interfaces(in: USBConfiguration(interfaces: [composite.interfaces[0]])) }
    }

    @Test func transfersFillingTheirLastPacketEndWithAZeroLengthPacket() {
        #expect(CDCACM().endsTransfersWithZeroLengthPacket)
        #expect(!FTDI(bcdDevice: 0x0600, interfaceCount: 1).endsTransfersWithZeroLengthPacket)
    }
}
