/// One LE connection as a central: routes L2CAP frames to ATT (a GATTClient), SMP (the
/// security procedure under way) and signalling, tracks encryption and parameters, and tells
/// waiters when the link goes.
public actor LEConnection {
    public nonisolated let handle: UInt16
    public nonisolated let peer: BDAddress
    public nonisolated let host: HCIHost
    public nonisolated let gatt: GATTClient
    public private(set) var encrypted = false
    /// Connection interval (1.25 ms units), latency and supervision timeout (10 ms units) in force.
    public private(set) var parameters: (interval: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    /// LE Connection Update Completes seen (the peripheral's requests, applied).
    public private(set) var parameterUpdates = 0
    /// Why the link ended, once it has.
    public private(set) var loss: HCIError?
    /// A Security Request from the peripheral that nobody has acted on yet.
    public private(set) var securityRequested = false

    private var security: AsyncStream<SecurityEvent>.Continuation?
    private var securityRequestHandler: (@Sendable () -> Void)?
    private var securing = false
    private var securityWaiters: [CheckedContinuation<Void, Never>] = []
    private var lossWaiters: [CheckedContinuation<HCIError, Never>] = []
    private var router: Task<Void, Never>?

    init(host: HCIHost, complete: LEConnectionComplete, events: AsyncStream<LinkEvent>) {
        self.host = host
        handle = complete.handle
        peer = complete.peer
        parameters = (complete.interval, complete.latency, complete.supervisionTimeout)
        let handle = complete.handle
        gatt = GATTClient(peer: complete.peer.description) { pdu in
            try await host.sendL2CAP(handle: handle, cid: L2CAPChannel.att, payload: pdu)
        }
        Task { await self.route(events) }
    }

    /// Connects to `peer` through `host`.
    public static func connect(host: HCIHost, to peer: BDAddress, parameters: ConnectionParameters = .default,
                               timeout: Duration = .seconds(10)) async throws -> LEConnection {
        let (complete, events) = try await host.connect(to: peer, parameters: parameters, timeout: timeout)
        return LEConnection(host: host, complete: complete, events: events)
    }

    private func route(_ events: AsyncStream<LinkEvent>) async {
        for await event in events {
            switch event {
            case let .l2cap(cid, payload):
                switch cid {
                case L2CAPChannel.att:
                    await gatt.receive(payload)
                case L2CAPChannel.smp:
                    receiveSMP(payload)
                case L2CAPChannel.signalling:
                    await signal(payload)
                default:
                    break  // no dynamic channels are opened
                }
            case let .encryptionChanged(status, enabled):
                encrypted = status == HCIStatus.success && enabled
                security?.yield(.encryptionChanged(status: status, enabled: enabled))
            case let .parametersUpdated(status, interval, latency, timeout):
                if status == HCIStatus.success {
                    parameters = (interval, latency, timeout)
                    parameterUpdates += 1
                }
            case let .disconnected(reason):
                lost(.disconnected(handle: handle, reason: reason))
            case let .hostFailed(error):
                lost(error)
            }
        }
        lost(.disconnected(handle: handle, reason: HCIStatus.localHostTerminated))
    }

    private func receiveSMP(_ pdu: [UInt8]) {
        if let security {
            security.yield(.smp(pdu))
        } else if pdu.first == SMPCode.securityRequest {
            if let handler = securityRequestHandler { handler() } else { securityRequested = true }
        } else if let code = pdu.first, code != SMPCode.pairingFailed {
            // Nothing is being paired: refuse, so the peer does not wait for its 30 s timeout.
            Task { await self.sendSMPQuietly([SMPCode.pairingFailed, 0x08]) }  // Unspecified Reason
        }
    }

    private func sendSMPQuietly(_ pdu: [UInt8]) async {
        do {
            try await sendSMP(pdu)
        } catch {
            // The link is going away; nothing to refuse any more.
        }
    }

    private func signal(_ pdu: [UInt8]) async {
        let answer = SignallingChannel.answer(pdu)
        do {
            if let reply = answer.reply { try await host.sendL2CAP(handle: handle, cid: L2CAPChannel.signalling, payload: reply) }
            if let p = answer.apply { try await host.run(.leConnectionUpdate(handle: handle, parameters: p)) }
        } catch {
            // A failed update leaves the old parameters; the link goes on.
        }
    }

    private func lost(_ error: HCIError) {
        guard loss == nil else { return }
        loss = error
        security?.yield(.lost(error))
        security?.finish()
        security = nil
        for w in lossWaiters { w.resume(returning: error) }
        lossWaiters = []
        for w in securityWaiters { w.resume() }
        securityWaiters = []
        Task { await gatt.close(.bearer(error.description)) }
    }

    // MARK: For the security procedure

    /// Called when the peripheral sends a Security Request (at once for one already received).
    public func onSecurityRequest(_ handler: @escaping @Sendable () -> Void) {
        securityRequestHandler = handler
        if securityRequested {
            securityRequested = false
            handler()
        }
    }

    /// One security procedure at a time: a Security Request and a refused write may both ask.
    public func takeSecurityTurn() async {
        if !securing { securing = true; return }
        await withCheckedContinuation { securityWaiters.append($0) }
    }

    public func passSecurityTurn() {
        if securityWaiters.isEmpty { securing = false } else { securityWaiters.removeFirst().resume() }
    }

    /// Starts receiving SMP PDUs and encryption changes; one procedure at a time.
    public func beginSecurity() throws -> AsyncStream<SecurityEvent> {
        if let loss { throw loss }
        let (stream, sink) = AsyncStream.makeStream(of: SecurityEvent.self)
        security?.finish()
        security = sink
        securityRequested = false
        return stream
    }

    public func endSecurity() {
        security?.finish()
        security = nil
    }

    public func sendSMP(_ pdu: [UInt8]) async throws {
        if let loss { throw loss }
        try await host.sendL2CAP(handle: handle, cid: L2CAPChannel.smp, payload: pdu)
    }

    /// HCI_LE_Enable_Encryption; the outcome arrives as `.encryptionChanged` (LTK least significant byte first).
    public func startEncryption(ltk: [UInt8], ediv: UInt16, rand: UInt64) async throws {
        if let loss { throw loss }
        try await host.run(.leEnableEncryption(handle: handle, random: rand, ediv: ediv, ltk: ltk))
    }

    // MARK: Lifetime

    /// Waits until the link is gone and returns why.
    public func waitForLoss() async -> HCIError {
        if let loss { return loss }
        return await withCheckedContinuation { lossWaiters.append($0) }
    }

    public func disconnect() async {
        guard loss == nil else { return }
        do {
            try await host.disconnect(handle: handle)
        } catch {
            lost(error as? HCIError ?? .closed)
        }
        _ = await waitForLoss()
    }
}

/// What a security procedure hears on its connection.
public enum SecurityEvent: Sendable {
    case smp([UInt8])
    case encryptionChanged(status: UInt8, enabled: Bool)
    case lost(HCIError)
}

/// SMP codes the connection itself needs before a procedure starts.
enum SMPCode {
    static let pairingFailed: UInt8 = 0x05
    static let securityRequest: UInt8 = 0x0B
}
