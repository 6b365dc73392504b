@testable import MeshBLE
import Testing

@Suite struct ATTPDUTests {
    static let samples: [ATTPDU] = {
        var all: [ATTPDU] = [.exchangeMTURequest(mtu: 247), .exchangeMTUResponse(mtu: 185), .findInformationRequest(start: 1, end: 0xFFFF)]
        all.append(.findInformationResponse([(0x13, .clientCharacteristicConfiguration)]))
        all.append(.findInformationResponse([(0x10, .nusRX)]))
        all.append(.findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: BLEUUID.nus.attField))
        all.append(.findByTypeValueResponse([(0x0E, 0x13), (0x20, 0x25)]))
        all.append(.readByTypeRequest(start: 1, end: 5, type: .characteristic))
        all.append(.readByTypeResponse([(0x0F, [0x0C, 0x10, 0x00] + BLEUUID.nusRX.attField)]))
        all += [.readRequest(handle: 3), .readResponse(value: [1, 2]), .readByGroupTypeRequest(start: 1, end: 0xFFFF, type: .primaryService)]
        all.append(.readByGroupTypeResponse([(1, 5, [0x00, 0x18])]))
        all += [.writeRequest(handle: 0x10, value: [1]), .writeResponse, .writeCommand(handle: 0x10, value: [2])]
        all += [.notification(handle: 0x12, value: [3]), .indication(handle: 0x12, value: []), .confirmation]
        all.append(.errorResponse(request: 0x12, handle: 0x10, error: .insufficientAuthentication))
        return all
    }()

    @Test(arguments: samples)
    func roundTrips(_ pdu: ATTPDU) throws {
        #expect(try ATTPDU(pdu.bytes) == pdu)
    }

    @Test func goldenBytes() {
        #expect(ATTPDU.exchangeMTURequest(mtu: 247).bytes == [0x02, 0xF7, 0x00])
        #expect(ATTPDU.writeRequest(handle: 0x13, value: [1, 0]).bytes == [0x12, 0x13, 0x00, 0x01, 0x00])
        #expect(ATTPDU.findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: BLEUUID.nus.attField).bytes.prefix(7) == [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        #expect(BLEUUID.nus.attField.first == 0x9E && BLEUUID.nus.attField.last == 0x6E)
        #expect(BLEUUID(0x2902).attField == [0x02, 0x29])
    }

    @Test(arguments: [[UInt8](), [0x03, 0x01], [0x09, 0x07, 1, 2, 3], [0x05, 0x03, 1, 0, 2, 0], [0x07, 1, 2, 3], [0x01, 0x12, 0x10]])
    func malformedIsATypedError(_ bytes: [UInt8]) {
        #expect(throws: ATTDecodeError.self) { try ATTPDU(bytes) }
    }

    @Test func uuidForms() {
        #expect(BLEUUID(0x2902).description == "00002902-0000-1000-8000-00805F9B34FB")
        #expect(BLEUUID(0x2902).short == 0x2902)
        #expect(BLEUUID.nus.short == nil)
        #expect(BLEUUID("not a uuid") == nil)
        #expect(BLEUUID(littleEndian: [0x02, 0x29, 0x00, 0x00]) == BLEUUID(0x2902))
    }
}
