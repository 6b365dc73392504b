import Foundation
@testable import MeshBLE
import Testing

/// The host against an in-memory controller: answers commands as an LE controller does,
/// with small buffers so flow control is exercised. No sockets, no threads of its own.
final class FakeController: HCITransport, @unchecked Sendable {
    let spec = "fake"
    private let lock = NSLock()
    private var deliver: (@Sendable (Result<[HCIPacket], HCITransportError>) -> Void)?
    private(set) var sent: [HCIPacket] = []
    /// Command credits given with each answer (Num_HCI_Command_Packets).
    var credits: UInt8 = 1
    /// ACL buffers: (size, count).
    var buffers: (UInt16, UInt8) = (27, 2)
    /// Opcodes answered with Command Status and nothing more (their event comes later or never).
    var statusOnly: Set<UInt16> = [HCICommand.Opcode.leCreateConnection, HCICommand.Opcode.disconnect, HCICommand.Opcode.leEnableEncryption]
    /// Opcodes never answered.
    var silent: Set<UInt16> = []
    /// Called for every command the host sends, after the standard answer.
    var onCommand: (@Sendable (HCICommand) -> Void)?
    /// Handles given, in turn, to connection attempts (LE Connection Complete after the Command Status).
    var connectHandles: [UInt16] = []

    func start(deliver: @escaping @Sendable (Result<[HCIPacket], HCITransportError>) -> Void) throws(HCITransportError) {
        lock.withLock { self.deliver = deliver }
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        lock.withLock { sent.append(packet) }
        guard case let .command(c) = packet else { return }
        if silent.contains(c.opcode) { return }
        if statusOnly.contains(c.opcode) {
            emit(.event(code: 0x0F, parameters: [0, credits, UInt8(c.opcode & 0xFF), UInt8(c.opcode >> 8)]))
        } else {
            var ret: [UInt8] = [0]
            switch c.opcode {
            case HCICommand.Opcode.readBDADDR: ret += [0x01, 0x00, 0xDE, 0xC0, 0xDE, 0xC0]
            case HCICommand.Opcode.leReadBufferSize: ret += [UInt8(buffers.0 & 0xFF), UInt8(buffers.0 >> 8), buffers.1]
            case HCICommand.Opcode.readLocalVersion: ret += [0x0B, 0, 0, 0x0B, 0xF1, 0x05, 0, 0]
            default: break
            }
            emit(.event(code: 0x0E, parameters: [credits, UInt8(c.opcode & 0xFF), UInt8(c.opcode >> 8)] + ret))
        }
        if c.opcode == HCICommand.Opcode.leCreateConnection, let handle = lock.withLock({ connectHandles.isEmpty ? nil : connectHandles.removeFirst() }) {
            connectionComplete(handle: handle)
        }
        onCommand?(c)
    }

    func close() {}

    func emit(_ packet: HCIPacket) {
        let d = lock.withLock { deliver }
        d?(.success([packet]))
    }

    func fail(_ message: String) {
        let d = lock.withLock { deliver }
        d?(.failure(HCITransportError(.lost, message)))
    }

    var sentACL: [ACLData] {
        lock.withLock { sent.compactMap { if case let .acl(a) = $0 { return a } else { return nil } } }
    }

    var sentCommands: [UInt16] {
        lock.withLock { sent.compactMap { if case let .command(c) = $0 { return c.opcode } else { return nil } } }
    }

    func connectionComplete(handle: UInt16, status: UInt8 = 0) {
        emit(.event(code: 0x3E, parameters: [0x01, status, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, 0x01, 0x01, 0, 0, 0, 0, 0xF0, 24, 0, 0, 0, 0x90, 0x01, 0]))
    }

    func completed(handle: UInt16, count: UInt16) {
        emit(.event(code: 0x13, parameters: [1, UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(count & 0xFF), UInt8(count >> 8)]))
    }
}

@Suite(.timeLimit(.minutes(1))) struct HCIHostTests {
    let peer = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)

    private func started(_ controller: FakeController = FakeController()) async throws -> (HCIHost, FakeController) {
        let host = HCIHost(transport: controller, trace: false, commandTimeout: 1)
        try await host.start()
        return (host, controller)
    }

    @Test func initializesInOrder() async throws {
        let (host, controller) = try await started()
        #expect(controller.sentCommands == [0x0C03, 0x1001, 0x1009, 0x2002, 0x0C01, 0x2001])
        #expect(await host.publicAddress.description == "C0:DE:C0:DE:00:01")
        #expect(await host.ownAddress.kind == .public)
        let size = await host.aclBufferSize, count = await host.aclBufferCount
        #expect(size == 27 && count == 2)
    }

    @Test func usesARandomStaticAddressWhenTheControllerHasNone() async throws {
        // A controller without a public address answers Read_BD_ADDR with zeros.
        final class Zero: HCITransport, @unchecked Sendable {
            let inner = FakeController()
            var spec: String { "zero" }
            func start(deliver: @escaping @Sendable (Result<[HCIPacket], HCITransportError>) -> Void) throws(HCITransportError) {
                try inner.start { result in
                    if case let .success(p) = result, case let .event(0x0E, params) = p[0], params[1] == 0x09, params[2] == 0x10 {
                        deliver(.success([.event(code: 0x0E, parameters: Array(params[0..<4]) + [0, 0, 0, 0, 0, 0])]))
                    } else {
                        deliver(result)
                    }
                }
            }
            func send(_ packet: HCIPacket) throws(HCITransportError) { try inner.send(packet) }
            func close() {}
        }
        let zero = Zero()
        let host = HCIHost(transport: zero, trace: false)
        try await host.start()
        let own = await host.ownAddress
        #expect(own.isRandomStatic)
        #expect(zero.inner.sentCommands.last == HCICommand.Opcode.leSetRandomAddress)
    }

    @Test func commandsWaitForCredits() async throws {
        let controller = FakeController()
        let (host, _) = try await started(controller)
        let before = controller.sentCommands.count
        controller.credits = 0  // the next answer allows nothing more
        async let first: [UInt8] = host.run(.leRand)
        async let second: [UInt8] = host.run(.readBufferSize)
        try await eventually { controller.sentCommands.count == before + 1 }
        #expect(await host.queuedCommands == 1)
        controller.credits = 1
        // A Command Complete for no command (opcode 0) hands out a credit.
        controller.emit(.event(code: 0x0E, parameters: [1, 0, 0]))
        _ = try await (first, second)
        #expect(controller.sentCommands.count == before + 2)
    }

    @Test func aclIsFragmentedAndWaitsForCompletedPackets() async throws {
        let (host, controller) = try await started()
        controller.connectHandles.append(0x40)
        let connection = try await host.connect(to: peer, timeout: .seconds(5))
        _ = connection
        // 69 bytes + 4 header = 3 fragments; only 2 buffers.
        try await host.sendL2CAP(handle: 0x40, cid: 6, payload: [UInt8](repeating: 7, count: 69))
        #expect(controller.sentACL.count == 2)
        controller.completed(handle: 0x40, count: 1)
        try await eventually { controller.sentACL.count == 3 }
        #expect(controller.sentACL.map(\.data.count) == [27, 27, 19])
        #expect(controller.sentACL.map(\.boundary) == [.firstNonFlushable, .continuing, .continuing])
    }

    @Test func disconnectionFreesBuffersAndEndsTheLink() async throws {
        let (host, controller) = try await started()
        controller.connectHandles.append(1)
        let connection = try await host.connect(to: peer, timeout: .seconds(5))
        let (_, events) = connection
        try await host.sendL2CAP(handle: 1, cid: 4, payload: [UInt8](repeating: 1, count: 60))
        controller.emit(.event(code: 0x05, parameters: [0, 1, 0, 0x08]))
        var last: LinkEvent?
        for await e in events { last = e }
        guard case let .disconnected(reason) = last else { Issue.record("\(String(describing: last))"); return }
        #expect(reason == HCIStatus.connectionTimeout)
        await #expect(throws: HCIError.self) { try await host.sendL2CAP(handle: 1, cid: 4, payload: [1]) }
        // Both buffers are free again for the next connection.
        controller.connectHandles.append(2)
        let next = try await host.connect(to: peer, timeout: .seconds(5))
        _ = next
        try await host.sendL2CAP(handle: 2, cid: 4, payload: [UInt8](repeating: 2, count: 40))
        #expect(controller.sentACL.filter { $0.handle == 2 }.count == 2)
    }

    @Test func connectTimesOutAndCancels() async throws {
        let (host, controller) = try await started()
        await #expect(throws: HCIError.connectTimeout(peer: peer, seconds: 0)) {
            _ = try await host.connect(to: peer, timeout: .milliseconds(100))
        }
        #expect(controller.sentCommands.contains(HCICommand.Opcode.leCreateConnectionCancel))
    }

    @Test func cancelAnsweredByConnectionCompleteStatus2() async throws {
        let controller = FakeController()
        controller.onCommand = { [weak controller] c in
            if c.opcode == HCICommand.Opcode.leCreateConnectionCancel { controller?.connectionComplete(handle: 0, status: 0x02) }
        }
        let (host, _) = try await started(controller)
        await #expect(throws: HCIError.connectTimeout(peer: peer, seconds: 0)) {
            _ = try await host.connect(to: peer, timeout: .milliseconds(100))
        }
    }

    @Test func unansweredCommandTimesOut() async throws {
        let controller = FakeController()
        let (host, _) = try await started(controller)
        controller.silent = [HCICommand.Opcode.leRand]
        await #expect(throws: HCIError.commandTimeout(command: "HCI_LE_Rand", seconds: 1)) { try await host.run(.leRand) }
    }

    @Test func aCommandThatTimesOutUnsentLeavesTheQueue() async throws {
        let controller = FakeController()
        let (host, _) = try await started(controller)
        let before = controller.sentCommands.count
        controller.silent = [HCICommand.Opcode.leRand]  // the first is sent and never answered
        let first = Task { try await host.run(.leRand) }
        let second = Task { try await host.run(.leRand) }  // waits for a credit that never comes
        await #expect(throws: HCIError.self) { try await first.value }
        await #expect(throws: HCIError.self) { try await second.value }
        #expect(controller.sentCommands.count == before + 1)
        #expect(await host.queuedCommands == 0)
    }

    @Test func transportFailureFailsEverythingWaiting() async throws {
        let (host, controller) = try await started()
        controller.onCommand = { [weak controller] c in
            if c.opcode == HCICommand.Opcode.leCreateConnection { controller?.fail("unplugged") }
        }
        async let connection = host.connect(to: peer, timeout: .seconds(5))
        do {
            _ = try await connection
            Issue.record("connected")
        } catch {
            #expect(error as? HCIError == .transport(HCITransportError(.lost, "unplugged")))
        }
        await #expect(throws: HCIError.self) { try await host.run(.leRand) }
    }

    @Test func reassemblesInboundL2CAPAndAnswersParameterRequests() async throws {
        let (host, controller) = try await started()
        controller.connectHandles.append(1)
        let connection = try await host.connect(to: peer, timeout: .seconds(5))
        let (_, events) = connection
        controller.emit(.acl(ACLData(handle: 1, boundary: .firstFlushable, data: [5, 0, 4, 0, 0x1B, 0x12])))
        controller.emit(.acl(ACLData(handle: 1, boundary: .continuing, data: [0, 9, 9])))
        controller.emit(.event(code: 0x3E, parameters: [0x06, 1, 0, 12, 0, 24, 0, 0, 0, 0x90, 0x01]))
        var it = events.makeAsyncIterator()
        guard case let .l2cap(cid, payload) = await it.next() else { Issue.record("no frame"); return }
        #expect(cid == 4 && payload == [0x1B, 0x12, 0, 9, 9])
        try await eventually { controller.sentCommands.last == HCICommand.Opcode.leRemoteConnectionParameterRequestReply }
    }
}

/// Waits (bounded) for a condition another task or thread makes true.
func eventually(_ condition: @Sendable () -> Bool) async throws {
    for _ in 0..<500 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("condition not met within 2.5 s")
}
