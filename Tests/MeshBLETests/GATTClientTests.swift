@testable import MeshBLE
import Testing

/// The GATT client against a small attribute server in this file, laid out as a MeshCore
/// radio's (NUS at 0x000E-0x0013), with no I/O: PDUs go straight between the two.
@Suite(.timeLimit(.minutes(1))) struct GATTClientTests {
    /// Answers ATT requests from a fixed table, as a peripheral would.
    final class Server: Sendable {
        func answer(_ request: [UInt8]) -> [UInt8]? {
            guard let pdu = try? ATTPDU(request) else { return ATTPDU.errorResponse(request: request.first ?? 0, handle: 0, error: .invalidPDU).bytes }
            switch pdu {
            case .exchangeMTURequest: return ATTPDU.exchangeMTUResponse(mtu: 185).bytes
            case let .findByTypeValueRequest(_, _, type, value) where type == 0x2800 && value == BLEUUID.nus.attField:
                return ATTPDU.findByTypeValueResponse([(0x000E, 0x0013)]).bytes
            case let .readByTypeRequest(start, _, type) where type == .characteristic:
                if start <= 0x000F {
                    return ATTPDU.readByTypeResponse([(0x000F, [0x0C, 0x10, 0x00] + BLEUUID.nusRX.attField)]).bytes
                } else if start <= 0x0011 {
                    return ATTPDU.readByTypeResponse([(0x0011, [0x12, 0x12, 0x00] + BLEUUID.nusTX.attField)]).bytes
                }
                return ATTPDU.errorResponse(request: 0x08, handle: start, error: .attributeNotFound).bytes
            case let .findInformationRequest(start, _):
                return start <= 0x0013 ? ATTPDU.findInformationResponse([(0x0013, .clientCharacteristicConfiguration)]).bytes
                    : ATTPDU.errorResponse(request: 0x04, handle: start, error: .attributeNotFound).bytes
            case let .writeRequest(handle, _) where handle == 0x0010:
                return ATTPDU.errorResponse(request: 0x12, handle: handle, error: .insufficientAuthentication).bytes
            case .writeRequest: return ATTPDU.writeResponse.bytes
            default: return ATTPDU.errorResponse(request: pdu.opcode, handle: 0, error: .attributeNotFound).bytes
            }
        }
    }

    private func client(_ server: Server = Server()) -> GATTClient {
        let box = ClientBox()
        let c = GATTClient(peer: "F0:00:00:00:00:01", timeout: .seconds(5)) { pdu in
            if let reply = server.answer(pdu), let client = box.client { Task { await client.receive(reply) } }
        }
        box.client = c
        return c
    }

    final class ClientBox: @unchecked Sendable { weak var client: GATTClient? }

    @Test func discoversTheCompanionService() async throws {
        let c = client()
        #expect(try await c.exchangeMTU(247) == 185)
        let service = try #require(try await c.primaryService(.nus))
        #expect(service.start == 0x000E && service.end == 0x0013)
        let chars = try await c.characteristics(of: service)
        #expect(chars.map(\.uuid) == [.nusRX, .nusTX])
        #expect(chars.map(\.value) == [0x0010, 0x0012])
        #expect(chars[0].canWrite && chars[0].canWriteWithoutResponse && chars[1].canNotify)
        #expect(chars[1].end == 0x0013)
        let descriptors = try await c.descriptors(of: chars[1])
        #expect(descriptors.map(\.handle) == [0x0013])
    }

    @Test func missingServiceIsNil() async throws {
        #expect(try await client().primaryService(BLEUUID(0x180F)) == nil)
    }

    @Test func errorResponsesAreTypedAndSayToPair() async throws {
        let c = client()
        do {
            try await c.write(0x0010, [1], withResponse: true)
            Issue.record("write succeeded")
        } catch let error as GATTError {
            #expect(error == .att(request: 0x12, handle: 0x0010, error: .insufficientAuthentication))
            #expect(error.description.contains("requires pairing"))
        }
        try await c.write(0x0013, [1, 0], withResponse: true)
    }

    /// A client whose server answers every request with `answer` (fuzz finding: a declaration
    /// below the previous one made a characteristic's end underflow and trap).
    private func client(answering answer: @escaping @Sendable ([UInt8]) -> [UInt8]) -> GATTClient {
        let box = ClientBox()
        let c = GATTClient(peer: "F0:00:00:00:00:01", timeout: .seconds(5)) { pdu in
            if let client = box.client { Task { await client.receive(answer(pdu)) } }
        }
        box.client = c
        return c
    }

    @Test func declarationsOutOfOrderAreAnUnexpectedAnswer() async throws {
        let c = client { _ in
            ATTPDU.readByTypeResponse([(0x000F, [0x0C, 0x10, 0x00] + BLEUUID.nusRX.attField), (0x0000, [0x12, 0x12, 0x00] + BLEUUID.nusTX.attField)]).bytes
        }
        await #expect(throws: GATTError.unexpected("Read By Type: a characteristic declaration at handle 0x0, out of order or outside 0xe-0x13")) {
            _ = try await c.characteristics(of: GATTService(uuid: .nus, start: 0x000E, end: 0x0013))
        }
    }

    @Test func descriptorsOutsideTheRangeAreAnUnexpectedAnswer() async throws {
        let c = client { _ in ATTPDU.findInformationResponse([(0x0001, .clientCharacteristicConfiguration)]).bytes }
        let tx = GATTCharacteristic(uuid: .nusTX, declaration: 0x0011, value: 0x0012, properties: 0x10, end: 0x0013)
        await #expect(throws: GATTError.unexpected("Find Information: a descriptor handle outside 0x13-0x13")) {
            _ = try await c.descriptors(of: tx)
        }
        // A value handle at the very end has no room for descriptors (and no handle after it).
        let last = GATTCharacteristic(uuid: .nusTX, declaration: 0xFFFE, value: 0xFFFF, properties: 0x10, end: 0xFFFF)
        #expect(try await c.descriptors(of: last).isEmpty)
    }

    @Test func valuesLongerThanTheMTUAreRefused() async {
        await #expect(throws: GATTError.tooLong(21, max: 20)) { try await client().write(0x0012, [UInt8](repeating: 0, count: 21), withResponse: true) }
    }

    @Test func notificationsArriveInOrderAndIndicationsAreConfirmed() async throws {
        let sent = SentBox()
        let c = GATTClient(peer: "p") { pdu in sent.append(pdu) }
        await c.receive(ATTPDU.notification(handle: 0x12, value: [1]).bytes)
        await c.receive(ATTPDU.indication(handle: 0x12, value: [2]).bytes)
        await c.close(.bearer("done"))
        var values: [[UInt8]] = []
        for await n in c.notifications { values.append(n.value) }
        #expect(values == [[1], [2]])
        #expect(sent.all == [[0x1E]])
    }

    @Test func requestsAfterTheBearerIsGoneFail() async {
        let c = GATTClient(peer: "p") { _ in }
        await c.close(.bearer("link lost"))
        await #expect(throws: GATTError.bearer("link lost")) { try await c.read(3) }
    }

    @Test func malformedServerRequestsGetAnErrorResponse() async {
        let sent = SentBox()
        let c = GATTClient(peer: "p") { pdu in sent.append(pdu) }
        await c.receive([0x0A, 0x01])  // Read Request cut short
        await c.receive([0x0C, 0x01, 0x00, 0x00, 0x00])  // Read Blob: not supported here
        #expect(sent.all == [[0x01, 0x0A, 0, 0, 0x04], [0x01, 0x0C, 0, 0, 0x06]])
    }

    final class SentBox: @unchecked Sendable {
        private let lock = NSLockLike()
        private var items: [[UInt8]] = []
        func append(_ p: [UInt8]) { lock.with { items.append(p) } }
        var all: [[UInt8]] { lock.with { items } }
    }
}
