import Foundation
import MeshCodec
import MeshStore

/// Repeaters, room servers and sensors reached through the radio (Docs/protocol.md §7.5): login
/// and logout, status, telemetry, binary requests and path discovery, keep-alives for
/// logged-in nodes, and the posts room servers push.
///
/// The radio tracks one remote request at a time, so every request and the wait for its
/// reply go through one gate: concurrent callers are answered one after the other.
public actor RemoteNodes {
    public nonisolated let context: ServiceContext
    public nonisolated let timeouts: RemoteTimeouts
    /// Between keep-alives to a logged-in node on a direct route (90 s; tests shorten it).
    public nonisolated let keepAliveInterval: Duration
    let vault: PasswordVault?
    let gate = TurnGate()
    private let now: @Sendable () -> Date
    var keepAlives: [PublicKey: Task<Void, Never>] = [:]

    public init(context: ServiceContext, vault: PasswordVault? = nil, timeouts: RemoteTimeouts = .standard,
                keepAliveInterval: Duration = .seconds(90), now: @escaping @Sendable () -> Date = { Date() }) {
        self.context = context
        self.vault = vault
        self.timeouts = timeouts
        self.keepAliveInterval = keepAliveInterval
        self.now = now
    }

    // MARK: Login

    /// SEND_LOGIN, then LOGIN_SUCCESS or LOGIN_FAIL from the node (matched by its key prefix).
    /// The login is saved and announced; with `remember` the password is kept in the vault.
    @discardableResult
    public func login(_ node: PublicKey, password: String, remember: Bool = false) async throws -> RemoteLogin {
        if remember, vault == nil { throw RemoteError.noPasswordVault }
        let contact = try await contact(node)
        let label = Self.label(contact)
        enum Reply: Sendable { case success(LoginSuccess), fail }
        let reply: Reply = try await request(.sendLogin(node, password: password), named: "login", to: contact) { _, push in
            switch push {
            case let .loginSuccess(s) where s.serverPrefix.matches(node): .success(s)
            case let .loginFail(prefix) where prefix.matches(node): .fail
            default: nil
            }
        }
        guard case let .success(success) = reply else {
            context.events.emit(.remote(.loginFailed(node)))
            throw RemoteError.wrongPassword(node: label)
        }
        let login = RemoteLogin(node: node, role: contact.type, reply: success)
        await saveLogin(login, contact: contact)
        if remember, let vault {
            do {
                try vault.remember(password, for: node)
            } catch {
                context.events.emit(.problem("logged in to \(label), but the password was not remembered: \(error)"))
            }
        }
        context.events.emit(.remote(.loggedIn(node, isAdmin: login.isAdmin, permission: login.permission)))
        startKeepAlive(node)
        return login
    }

    /// Logs in with the password remembered for `node`.
    @discardableResult
    public func login(_ node: PublicKey) async throws -> RemoteLogin {
        let contact = try await contact(node)
        guard let vault, let password = try vault.password(for: node) else {
            throw RemoteError.noRememberedPassword(node: Self.label(contact))
        }
        return try await login(node, password: password)
    }

    /// LOGOUT: the radio drops its connection state, keep-alives stop, the session is marked
    /// disconnected.
    public func logout(_ node: PublicKey) async throws {
        stopKeepAlive(node)
        try await context.session.expectOK(.logout(node))
        do {
            try await context.store.writer.setLoginConnected(context.radio, node: node, false)
        } catch .notFound {
            // Never logged in from this store: nothing to mark.
        }
        context.events.emit(.remote(.loggedOut(node)))
    }

    /// Nodes with a keep-alive running (logged in during this session).
    public var loggedIn: Set<PublicKey> { Set(keepAlives.keys) }

    // MARK: Status and telemetry

    /// SEND_STATUS_REQ, then STATUS_RESPONSE (matched by key prefix); recorded as a stats sample.
    @discardableResult
    public func status(_ node: PublicKey) async throws -> RepeaterStatus {
        let contact = try await contact(node)
        let blob: [UInt8] = try await request(.sendStatusRequest(node), named: "status request", to: contact) { _, push in
            if case let .statusResponse(prefix, blob) = push, prefix.matches(node) { blob } else { nil }
        }
        guard let status = RepeaterStatus(blob: blob) else {
            throw RemoteError.undecodableReply(request: "status request", node: Self.label(contact),
                                               reason: "\(blob.count)-byte status, at least 52 expected")
        }
        await context.store.record(context.radio, stats: StatsSample(node: node, status: status, recordedAt: now()))
        context.events.emit(.remote(.status(node, status)))
        return status
    }

    /// SEND_TELEMETRY_REQ, then TELEMETRY_RESPONSE: Cayenne LPP records, recorded (a GPS
    /// record also as a position).
    @discardableResult
    public func telemetry(_ node: PublicKey) async throws -> [LPPRecord] {
        let contact = try await contact(node)
        let lpp: [UInt8] = try await request(.sendTelemetryRequest(node, reserved: [0, 0, 0]), named: "telemetry request", to: contact) { _, push in
            if case let .telemetryResponse(prefix, lpp) = push, prefix.matches(node) { lpp } else { nil }
        }
        let records: [LPPRecord]
        do {
            records = try CayenneLPP.decode(lpp)
        } catch {
            throw RemoteError.undecodableReply(request: "telemetry request", node: Self.label(contact), reason: "\(error)")
        }
        let at = now()
        await context.store.record(context.radio, SampleBatch(positions: records.compactMap { Self.position($0, of: node, at: at) },
                                                              telemetry: records.map { TelemetrySample(node: node, record: $0, recordedAt: at) }))
        context.events.emit(.remote(.telemetry(node, records)))
        return records
    }

    // MARK: Binary requests and path discovery

    /// SEND_BINARY_REQ (request type first, Docs/protocol.md §7.5), then BINARY_RESPONSE with the
    /// same tag as SENT: the reply bytes.
    public func binaryRequest(_ node: PublicKey, _ data: [UInt8]) async throws -> [UInt8] {
        let contact = try await contact(node)
        let name = "binary request 0x\(Hex.encode(data.prefix(1)))"
        return try await request(.sendBinaryRequest(node, data: data), named: name, to: contact) { sent, push in
            if case let .binaryResponse(tag, reply) = push, tag == sent.ackCode { reply } else { nil }
        }
    }

    /// SEND_PATH_DISCOVERY_REQ, then PATH_DISCOVERY_RESPONSE: the paths out and back.
    public func discoverPath(_ node: PublicKey) async throws -> PathDiscoveryResponse {
        let contact = try await contact(node)
        return try await request(.sendPathDiscoveryRequest(node), named: "path discovery", to: contact) { _, push in
            if case let .pathDiscoveryResponse(r) = push, r.prefix.matches(node) { r } else { nil }
        }
    }

    // MARK: Requests

    /// Sends `command` and waits for the push `match` accepts, holding the gate for both. The
    /// time limit grows with the route (see `RemoteTimeouts`).
    func request<T: Sendable>(_ command: Command, named name: String, to contact: Contact,
                              match: @escaping @Sendable (Sent, Push) -> T?) async throws -> T {
        let session = context.session, timeouts = timeouts, label = Self.label(contact), radioURL = context.radioURL
        return try await gate.run {
            let events = session.subscribe()
            let sent: Sent
            do {
                sent = try await session.expect(command) { if case let .sent(s) = $0 { s } else { nil } }
            } catch SessionError.refused(_, _, .notFound) {
                throw RemoteError.unknownContact(contact.publicKey, url: radioURL)
            }
            let limit = timeouts.limit(flood: sent.flood, hops: contact.outPath.length.hopCount, suggestedMs: sent.suggestedTimeoutMs)
            switch await PushWaiter.first(in: events, within: limit, { match(sent, $0) }) {
            case let .value(value): return value
            case .timedOut: throw RemoteError.noAnswer(request: name, node: label, seconds: limit.seconds, flood: sent.flood)
            case let .linkLost(reason): throw RemoteError.linkLost(request: name, node: label, reason: reason)
            }
        }
    }

    /// The radio's record of `node` (GET_CONTACT_BY_KEY): its type and current route.
    func contact(_ node: PublicKey) async throws -> Contact {
        do {
            return try await context.session.expect(.getContactByKey(node)) { if case let .contact(c) = $0 { c } else { nil } }
        } catch SessionError.refused(_, _, .notFound) {
            throw RemoteError.unknownContact(node, url: context.radioURL)
        }
    }

    /// "Town Square (a1b2c3d4e5f6)".
    static func label(_ contact: Contact) -> String {
        contact.name.isEmpty ? contact.publicKey.prefix(6).hex : "\(contact.name) (\(contact.publicKey.prefix(6).hex))"
    }

    static func position(_ record: LPPRecord, of node: PublicKey, at time: Date) -> PositionSample? {
        guard record.type == .gps, record.values.count == 3 else { return nil }
        return PositionSample(node: node, coordinates: Coordinates(latitude: record.values[0], longitude: record.values[1]),
                              altitude: record.values[2], source: .telemetry, recordedAt: time)
    }

    /// Saves the login; the contact row is added first when the store does not have it yet.
    /// A failed save is reported as a problem: the node did let us in.
    private func saveLogin(_ login: RemoteLogin, contact: Contact) async {
        let (store, radio) = (context.store, context.radio)
        do {
            if try store.reader.contact(radio, key: contact.publicKey) == nil {
                try await store.writer.saveContacts(radio, [contact])
            }
            try await store.writer.saveLogin(radio, node: login.node, role: login.role, permission: login.permission, at: now())
        } catch {
            context.events.emit(.problem("logged in to \(Self.label(contact)), but the login was not saved: \(error)"))
        }
    }
}
