/// Makes a connection secure the way a MeshCore radio requires: encrypt with the stored bond
/// when there is one, otherwise pair with the passkey (LE Secure Connections or legacy) and
/// store the bond. The passkey is asked for only when pairing is actually needed.
public struct LinkSecurity: Sendable {
    public enum Need: Sendable {
        /// Opening: encrypt if bonded, else wait until the radio asks.
        case ifBonded
        /// The radio refused access or sent a Security Request: encrypt or pair now.
        case required
    }

    public let bonds: BondStore?
    public let passkey: @Sendable () throws -> UInt32
    /// SMP's transaction timeout (Core Vol 3 Part H 3.4).
    public var timeout: Duration = .seconds(30)

    public init(bonds: BondStore?, passkey: @escaping @Sendable () throws -> UInt32) {
        self.bonds = bonds
        self.passkey = passkey
    }

    public func secure(_ connection: LEConnection, _ need: Need) async throws {
        await connection.takeSecurityTurn()
        do {
            try await secureInTurn(connection, need)
        } catch {
            await connection.passSecurityTurn()
            throw error
        }
        await connection.passSecurityTurn()
    }

    private func secureInTurn(_ connection: LEConnection, _ need: Need) async throws {
        if await connection.encrypted { return }
        if let loss = await connection.loss { throw loss }
        let peer = connection.peer
        if let bond = try bonds?.bond(for: peer) {
            try await encrypt(connection, with: bond)
            return
        }
        if case .ifBonded = need { return }
        try await pair(connection)
    }

    /// Runs one procedure with the connection's security events, ended before the next can start.
    private func withSecurityEvents<T>(_ connection: LEConnection, _ body: (AsyncStream<SecurityEvent>) async throws -> T) async throws -> T {
        let events = try await connection.beginSecurity()
        do {
            let result = try await body(events)
            await connection.endSecurity()
            return result
        } catch {
            await connection.endSecurity()
            throw error
        }
    }

    private func encrypt(_ connection: LEConnection, with bond: SMPBond) async throws {
        try await withSecurityEvents(connection) { events in try await encrypt(connection, with: bond, events) }
    }

    private func encrypt(_ connection: LEConnection, with bond: SMPBond, _ events: AsyncStream<SecurityEvent>) async throws {
        try await connection.startEncryption(ltk: bond.ltk, ediv: bond.ediv, rand: bond.rand)
        for await event in events {
            switch event {
            case let .encryptionChanged(status, enabled):
                if status == HCIStatus.success && enabled { return }
                if status == HCIStatus.pinOrKeyMissing { throw LinkSecurityError.staleBond(peer: connection.peer) }
                throw LinkSecurityError.encryptionFailed(peer: connection.peer, status: status)
            case let .lost(error):
                if case let .disconnected(_, reason) = error, reason == HCIStatus.micFailure || reason == HCIStatus.pinOrKeyMissing {
                    throw LinkSecurityError.staleBond(peer: connection.peer)
                }
                throw error
            case .smp:
                continue
            }
        }
        throw LinkSecurityError.encryptionFailed(peer: connection.peer, status: HCIStatus.localHostTerminated)
    }

    private func pair(_ connection: LEConnection) async throws {
        let key = try passkey()
        try await withSecurityEvents(connection) { events in try await pair(connection, passkey: key, events) }
    }

    private func pair(_ connection: LEConnection, passkey key: UInt32, _ events: AsyncStream<SecurityEvent>) async throws {
        var config = SMPConfig(passkey: key)
        if let bonds { config.localIdentity = (try bonds.localIRK(), await connection.host.ownAddress) }
        var smp = SMPInitiator(config: config, local: await connection.host.ownAddress, peer: connection.peer)
        let started = ContinuousClock.now
        let timer = Task {
            try await Task.sleep(for: timeout)
            await connection.disconnect()
        }
        defer { timer.cancel() }
        if let bond = try await perform(smp.start(), on: connection) { try keep(bond); return }
        for await event in events {
            let actions: [SMPAction]
            switch event {
            case let .smp(pdu): actions = smp.handle(pdu: pdu)
            case let .encryptionChanged(status, enabled): actions = smp.encryptionChanged(status: status, enabled: enabled)
            case let .lost(error):
                throw ContinuousClock.now - started >= timeout ? LinkSecurityError.pairingTimeout(peer: connection.peer) : error
            }
            if let bond = try await perform(actions, on: connection) {
                try keep(bond)
                return
            }
        }
        throw LinkSecurityError.pairingTimeout(peer: connection.peer)
    }

    /// Stores a bond the radio gave a key for (a legacy pairing without one secures this link only).
    private func keep(_ bond: SMPBond) throws {
        guard let bonds, bond.ltk.count == 16 else { return }
        try bonds.save(bond)
    }

    /// Carries out SMP's actions; returns the bond when pairing completed.
    private func perform(_ actions: [SMPAction], on connection: LEConnection) async throws -> SMPBond? {
        for action in actions {
            switch action {
            case let .send(pdu): try await connection.sendSMP(pdu)
            case let .startEncryption(ltk, ediv, rand): try await connection.startEncryption(ltk: ltk, ediv: ediv, rand: rand)
            case let .completed(bond): return bond
            case let .failed(error): throw error
            }
        }
        return nil
    }
}

/// Securing a link failed in a way pairing itself does not describe.
public enum LinkSecurityError: Error, Equatable, CustomStringConvertible {
    /// The radio no longer has the bond stored here (it was reset or re-flashed).
    case staleBond(peer: BDAddress)
    case encryptionFailed(peer: BDAddress, status: UInt8)
    case pairingTimeout(peer: BDAddress)
    /// Pairing is needed and no PIN was given.
    case noPasskey(peer: BDAddress)

    public var description: String {
        switch self {
        case let .staleBond(peer):
            return "\(peer) no longer recognises this computer's bond (the radio was reset or paired elsewhere): run meshport ble forget \(peer), then connect again to pair"
        case let .encryptionFailed(peer, status):
            return "encrypting the link to \(peer) failed: \(HCIStatus.describe(status))"
        case let .pairingTimeout(peer):
            return "pairing with \(peer) did not finish within 30 s"
        case let .noPasskey(peer):
            return "\(peer) requires pairing with its PIN: add ?pin=123456 to the URL (the PIN is shown on the radio or set in its app; default 123456) or save it with meshport ble pin \(peer) PIN"
        }
    }
}
