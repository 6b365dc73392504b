import Foundation

/// The host side of HCI for an LE central: initialization, commands with flow control
/// (Num_HCI_Command_Packets), ACL out with flow control (Number Of Completed Packets) and
/// fragmentation, ACL in with reassembly, and events routed to scans, connection attempts
/// and connections. One actor owns the controller; packets are handled in arrival order.
public actor HCIHost {
    public let transport: any HCITransport
    /// The controller's public address (Read_BD_ADDR).
    public private(set) var publicAddress = BDAddress(littleEndian: [UInt8](repeating: 0, count: 6), kind: .public)
    /// The address this host connects with: public, or random static when the controller has none.
    public private(set) var ownAddress = BDAddress(littleEndian: [UInt8](repeating: 0, count: 6), kind: .public)
    /// HCI version, manufacturer from Read_Local_Version_Information.
    public private(set) var version: (hci: UInt8, manufacturer: UInt16) = (0, 0)
    /// ACL buffer size and count for LE (27 x 64 on the emulated controller).
    public private(set) var aclBufferSize = 27
    public private(set) var aclBufferCount = 1

    private var failure: HCIError?
    private var commandCredits = 1
    private var commandQueue: [HCICommand] = []
    /// Commands waiting for a credit from the controller.
    public var queuedCommands: Int { commandQueue.count }
    private var pending: [UInt16: [CheckedContinuation<[UInt8], Error>]] = [:]
    private var aclCredits = 1
    private var aclQueue: [ACLData] = []
    private var aclInFlight: [UInt16: Int] = [:]
    private var reassemblers: [UInt16: L2CAPReassembler] = [:]
    private var links: [UInt16: AsyncStream<LinkEvent>.Continuation] = [:]
    private var connectWaiter: CheckedContinuation<(LEConnectionComplete, AsyncStream<LinkEvent>?), Error>?
    private var scanSink: AsyncStream<AdvertisingReport>.Continuation?
    private var reader: Task<Void, Never>?
    private let trace: Bool
    /// Seconds a command may go unanswered.
    private let commandTimeout: Int

    /// Where what the host has to say goes (the driver's log in `meshport`, else stderr).
    private let say: @Sendable (String) -> Void

    public init(transport: any HCITransport, trace: Bool = ProcessInfo.processInfo.environment["MESHPORT_BLE_TRACE"] == "1",
                commandTimeout: Int = 3, log: @escaping @Sendable (String) -> Void = HCIHost.standardError) {
        self.transport = transport
        say = log
        self.trace = trace
        self.commandTimeout = commandTimeout
    }

    /// Starts reading and initializes the controller: reset, version, address, buffer sizes,
    /// event masks, and a random static address when the controller has no public one.
    public func start(randomAddress: () -> BDAddress = HCIHost.makeRandomStaticAddress) async throws {
        let (stream, sink) = AsyncStream.makeStream(of: Result<[HCIPacket], HCITransportError>.self)
        do {
            try transport.start { sink.yield($0) }
        } catch {
            throw HCIError.transport(error)
        }
        reader = Task { [weak self] in
            for await batch in stream {
                guard let self else { return }
                await self.receive(batch)
            }
        }
        _ = try await run(.reset)
        let v = try await run(.readLocalVersion)
        if v.count >= 8 { version = (v[0], UInt16(v[4]) | UInt16(v[5]) << 8) }
        let a = try await run(.readBDADDR)
        guard a.count >= 6 else { throw HCIError.malformed(TruncatedPDU(what: "Read_BD_ADDR", length: a.count + 1, needed: 7)) }
        publicAddress = BDAddress(littleEndian: a[0..<6], kind: .public)
        var size = try await run(.leReadBufferSize)
        guard size.count >= 3 else { throw HCIError.malformed(TruncatedPDU(what: "LE_Read_Buffer_Size", length: size.count + 1, needed: 4)) }
        aclBufferSize = Int(size[0]) | Int(size[1]) << 8
        aclBufferCount = Int(size[2])
        if aclBufferSize == 0 || aclBufferCount == 0 {
            // LE shares the BR/EDR buffers on this controller.
            size = try await run(.readBufferSize)
            guard size.count >= 7 else { throw HCIError.malformed(TruncatedPDU(what: "Read_Buffer_Size", length: size.count + 1, needed: 8)) }
            aclBufferSize = Int(size[0]) | Int(size[1]) << 8
            aclBufferCount = Int(size[3]) | Int(size[4]) << 8
        }
        aclBufferSize = max(aclBufferSize, 27)
        aclBufferCount = max(aclBufferCount, 1)
        aclCredits = aclBufferCount
        _ = try await run(.setEventMask)
        _ = try await run(.leSetEventMask)
        if publicAddress.bytes.allSatisfy({ $0 == 0 }) {
            ownAddress = randomAddress()
            _ = try await run(.leSetRandomAddress(ownAddress))
        } else {
            ownAddress = publicAddress
        }
    }

    /// A new random static address: 46 random bits under the two top bits 11.
    public static func makeRandomStaticAddress() -> BDAddress {
        var bytes = (0..<6).map { _ in UInt8.random(in: 0...255) }
        bytes[0] |= 0xC0
        return BDAddress(littleEndian: bytes.reversed(), kind: .random)
    }

    /// Stops reading, fails everything waiting and closes the transport.
    public func close() {
        fail(.closed)
        reader?.cancel()
        transport.close()
    }

    // MARK: Commands

    /// Sends a command and returns its Command Complete return parameters after the status
    /// byte (empty for a command answered by Command Status). A non-zero status throws.
    @discardableResult
    public func run(_ command: HCICommand) async throws -> [UInt8] {
        let answer = try await send(command)
        guard let status = answer.first else { return [] }
        guard status == HCIStatus.success else { throw HCIError.commandFailed(command: command.description, status: status) }
        return Array(answer.dropFirst())
    }

    /// Sends a command; returns the raw Command Complete return parameters, or [status] for Command Status.
    public func send(_ command: HCICommand) async throws -> [UInt8] {
        if let failure { throw failure }
        let timeout = commandTimeout
        let timer = Task { [weak self] in
            try await Task.sleep(for: .seconds(timeout))
            await self?.expire(command)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            pending[command.opcode, default: []].append(continuation)
            commandQueue.append(command)
            pumpCommands()
        }
    }

    private func expire(_ command: HCICommand) {
        guard var waiting = pending[command.opcode], !waiting.isEmpty else { return }
        // Waiters and queued commands of one opcode are both oldest first: when as many wait as
        // are queued, the expired (oldest) one was never sent, so it leaves the queue too.
        if commandQueue.filter({ $0.opcode == command.opcode }).count == waiting.count,
           let unsent = commandQueue.firstIndex(where: { $0.opcode == command.opcode }) {
            commandQueue.remove(at: unsent)
        }
        let c = waiting.removeFirst()
        pending[command.opcode] = waiting.isEmpty ? nil : waiting
        c.resume(throwing: HCIError.commandTimeout(command: command.description, seconds: commandTimeout))
    }

    private func pumpCommands() {
        while commandCredits > 0, !commandQueue.isEmpty {
            let c = commandQueue.removeFirst()
            commandCredits -= 1
            write(.command(c))
        }
    }

    private func answer(_ opcode: UInt16, _ parameters: [UInt8]) {
        guard var waiting = pending[opcode], !waiting.isEmpty else {
            if trace { log("unsolicited answer to \(HCICommand.name(of: opcode))") }
            return
        }
        let c = waiting.removeFirst()
        pending[opcode] = waiting.isEmpty ? nil : waiting
        c.resume(returning: parameters)
    }

    // MARK: ACL

    /// Queues one L2CAP frame on a connection, fragmented to the controller's buffer size.
    /// Fragments of one frame are never interleaved with another's.
    public func sendL2CAP(handle: UInt16, cid: UInt16, payload: [UInt8]) throws {
        if let failure { throw failure }
        guard links[handle] != nil else { throw HCIError.disconnected(handle: handle, reason: HCIStatus.unknownConnectionIdentifier) }
        aclQueue += L2CAPReassembler.fragments(handle: handle, cid: cid, payload: payload, bufferSize: aclBufferSize)
        pumpACL()
    }

    private func pumpACL() {
        while aclCredits > 0, !aclQueue.isEmpty {
            let fragment = aclQueue.removeFirst()
            aclCredits -= 1
            aclInFlight[fragment.handle, default: 0] += 1
            write(.acl(fragment))
        }
    }

    // MARK: Connections

    /// Connects to a peripheral (LE_Create_Connection); after `timeout` the attempt is
    /// cancelled. Returns the connection's parameters and its event stream.
    public func connect(to peer: BDAddress, parameters: ConnectionParameters = .default, timeout: Duration = .seconds(10)) async throws -> (LEConnectionComplete, AsyncStream<LinkEvent>) {
        if let failure { throw failure }
        guard connectWaiter == nil else { throw HCIError.busy("another connection attempt is under way") }
        if scanSink != nil { try await stopScan() }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.cancelConnect(peer: peer, after: timeout)
        }
        defer { timer.cancel() }
        let (complete, events) = try await withCheckedThrowingContinuation { continuation in
            connectWaiter = continuation
            Task { await self.createConnection(peer: peer, parameters: parameters) }
        }
        switch complete.status {
        case HCIStatus.success:
            break
        case HCIStatus.unknownConnectionIdentifier:
            throw HCIError.connectTimeout(peer: peer, seconds: Int(timeout.components.seconds))
        default:
            throw HCIError.connectFailed(peer: peer, status: complete.status)
        }
        guard let events else { throw HCIError.connectFailed(peer: peer, status: complete.status) }
        return (complete, events)
    }

    private func createConnection(peer: BDAddress, parameters: ConnectionParameters) async {
        do {
            try await run(.leCreateConnection(peer: peer, ownAddress: ownAddress.kind, parameters: parameters))
        } catch {
            connectWaiter?.resume(throwing: error)
            connectWaiter = nil
        }
    }

    private func cancelConnect(peer: BDAddress, after timeout: Duration) async {
        guard connectWaiter != nil else { return }
        do {
            // The controller then ends the attempt with LE Connection Complete, status 0x02.
            try await run(.leCreateConnectionCancel)
        } catch HCIError.commandFailed(_, HCIStatus.commandDisallowed) {
            return  // no attempt pending any more: the connection came up meanwhile
        } catch {
            connectWaiter?.resume(throwing: error)
            connectWaiter = nil
            return
        }
        // Some controllers (emulators among them) never send that event: do not wait forever.
        do {
            try await Task.sleep(for: .seconds(1))
        } catch {
            return
        }
        connectWaiter?.resume(throwing: HCIError.connectTimeout(peer: peer, seconds: Int(timeout.components.seconds)))
        connectWaiter = nil
    }

    /// Asks the controller to end a connection; its Disconnection Complete ends the link's events.
    public func disconnect(handle: UInt16, reason: UInt8 = HCIStatus.remoteUserTerminated) async throws {
        guard links[handle] != nil else { return }
        try await run(.disconnect(handle: handle, reason: reason))
    }

    // MARK: Scanning

    /// Starts scanning; reports arrive on the stream until `stopScan`.
    public func startScan(active: Bool = true) async throws -> AsyncStream<AdvertisingReport> {
        if let failure { throw failure }
        guard scanSink == nil else { throw HCIError.busy("a scan is under way") }
        guard connectWaiter == nil else { throw HCIError.busy("a connection attempt is under way") }
        let (stream, sink) = AsyncStream.makeStream(of: AdvertisingReport.self, bufferingPolicy: .bufferingNewest(1024))
        scanSink = sink
        do {
            try await run(.leSetScanParameters(active: active, ownAddress: ownAddress.kind))
            try await run(.leSetScanEnable(true))
        } catch {
            scanSink = nil
            sink.finish()
            throw error
        }
        return stream
    }

    public func stopScan() async throws {
        guard let sink = scanSink else { return }
        scanSink = nil
        sink.finish()
        try await run(.leSetScanEnable(false))
    }

    // MARK: Inbound

    private func receive(_ batch: Result<[HCIPacket], HCITransportError>) {
        switch batch {
        case let .failure(e):
            fail(.transport(e))
        case let .success(packets):
            for p in packets { handle(p) }
        }
    }

    private func handle(_ packet: HCIPacket) {
        if trace { log("< \(packet.h4.map { String(format: "%02x", $0) }.joined(separator: " "))") }
        switch packet {
        case let .event(code, parameters):
            do {
                handle(try HCIEvent(code: code, parameters: parameters))
            } catch {
                log("dropped: \(error)")
            }
        case let .acl(acl):
            guard var r = reassemblers[acl.handle] else { return }
            do {
                if let frame = try r.push(acl) { links[acl.handle]?.yield(.l2cap(cid: frame.cid, payload: frame.payload)) }
            } catch {
                log("\(error)")
            }
            reassemblers[acl.handle] = r
        case .command:
            break  // A controller never sends commands.
        }
    }

    private func handle(_ event: HCIEvent) {
        switch event {
        case let .commandComplete(numPackets, opcode, returnParameters):
            commandCredits = Int(numPackets)
            if opcode != 0 { answer(opcode, returnParameters) }
            pumpCommands()
        case let .commandStatus(status, numPackets, opcode):
            commandCredits = Int(numPackets)
            if opcode != 0 { answer(opcode, [status]) }
            pumpCommands()
        case let .numberOfCompletedPackets(entries):
            for e in entries {
                let done = min(Int(e.count), aclInFlight[e.handle] ?? 0)
                aclInFlight[e.handle] = (aclInFlight[e.handle] ?? 0) - done
                aclCredits = min(aclBufferCount, aclCredits + done)
            }
            pumpACL()
        case let .disconnectionComplete(status, handle, reason):
            guard status == HCIStatus.success else { return }
            // The controller frees the buffers of a closed connection; so do we, and drop its queue.
            aclCredits = min(aclBufferCount, aclCredits + (aclInFlight.removeValue(forKey: handle) ?? 0))
            aclQueue.removeAll { $0.handle == handle }
            reassemblers[handle] = nil
            if let sink = links.removeValue(forKey: handle) {
                sink.yield(.disconnected(reason: reason))
                sink.finish()
            }
            pumpACL()
        case let .encryptionChange(status, handle, enabled):
            links[handle]?.yield(.encryptionChanged(status: status, enabled: enabled))
        case let .encryptionKeyRefreshComplete(status, handle):
            links[handle]?.yield(.encryptionChanged(status: status, enabled: status == HCIStatus.success))
        case let .leConnectionComplete(complete):
            if let waiter = connectWaiter {
                connectWaiter = nil
                var events: AsyncStream<LinkEvent>?
                if complete.status == HCIStatus.success {
                    // Routed from now on: the peripheral may send (a Security Request, say) at once.
                    let (stream, sink) = AsyncStream.makeStream(of: LinkEvent.self)
                    links[complete.handle] = sink
                    reassemblers[complete.handle] = L2CAPReassembler()
                    events = stream
                }
                waiter.resume(returning: (complete, events))
            } else if complete.status == HCIStatus.success {
                // A connection nobody waits for any more (cancel raced it): end it.
                let handle = complete.handle
                Task { await self.endUnwanted(handle) }
            }
        case let .leAdvertisingReports(reports):
            for r in reports { scanSink?.yield(r) }
        case let .leConnectionUpdateComplete(status, handle, interval, latency, timeout):
            links[handle]?.yield(.parametersUpdated(status: status, interval: interval, latency: latency, supervisionTimeout: timeout))
        case let .leRemoteConnectionParameterRequest(handle, parameters):
            Task { await self.answerParameterRequest(handle: handle, parameters: parameters) }
        case let .hardwareError(code):
            fail(.transport(HCITransportError(.lost, "\(transport.spec): the controller reported hardware error 0x\(String(code, radix: 16))",
                                              fix: "unplug and replug the adapter")))
        case .dataBufferOverflow:
            log("the controller reported an ACL buffer overflow")
        case .other:
            break
        }
    }

    private func endUnwanted(_ handle: UInt16) async {
        do {
            try await run(.disconnect(handle: handle, reason: HCIStatus.remoteUserTerminated))
        } catch {
            log("ending connection 0x\(String(handle, radix: 16)) after a cancelled attempt: \(error)")
        }
    }

    /// A peripheral asking for other parameters through the link layer: accept valid ones.
    private func answerParameterRequest(handle: UInt16, parameters: ConnectionParameters) async {
        do {
            if parameters.isValid {
                try await run(.leRemoteConnectionParameterRequestReply(handle: handle, parameters: parameters))
            } else {
                var p: [UInt8] = []
                p.appendLE(handle)
                p.append(HCIStatus.unacceptableConnectionParameters)
                try await run(HCICommand(opcode: HCICommand.Opcode.leRemoteConnectionParameterRequestNegativeReply, parameters: p))
            }
        } catch {
            log("answering the parameter request on 0x\(String(handle, radix: 16)): \(error)")
        }
    }

    private func write(_ packet: HCIPacket) {
        if trace { log("> \(packet.h4.map { String(format: "%02x", $0) }.joined(separator: " "))") }
        do {
            try transport.send(packet)
        } catch {
            fail(.transport(error))
        }
    }

    /// Fails every waiter and ends every connection's events; later calls throw `error`.
    private func fail(_ error: HCIError) {
        guard failure == nil else { return }
        failure = error
        for (_, waiting) in pending { for c in waiting { c.resume(throwing: error) } }
        pending = [:]
        commandQueue = []
        connectWaiter?.resume(throwing: error)
        connectWaiter = nil
        scanSink?.finish()
        scanSink = nil
        for (_, sink) in links {
            sink.yield(.hostFailed(error))
            sink.finish()
        }
        links = [:]
    }

    private func log(_ text: String) { say(text) }

    /// A line on stderr, for programs without a log of their own. The throwing write: the
    /// other traps on EPIPE once SIGPIPE is ignored (serve ignores it), and a closed stderr
    /// must not take the host program down.
    public static let standardError: @Sendable (String) -> Void = { text in
        do {
            try FileHandle.standardError.write(contentsOf: Data("meshport ble: \(text)\n".utf8))
        } catch {
            // Nobody is reading: the line has nowhere to go.
        }
    }
}

/// What happens on one connection, in order.
public enum LinkEvent: Sendable {
    case l2cap(cid: UInt16, payload: [UInt8])
    case encryptionChanged(status: UInt8, enabled: Bool)
    case parametersUpdated(status: UInt8, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    case disconnected(reason: UInt8)
    /// The controller or its transport failed; the connection is gone with it.
    case hostFailed(HCIError)
}
