import Foundation
import MeshCodec
import MeshStore

/// One radio as a front end uses it: the session kept up (reconnecting when the link is
/// lost), everything it learns kept in the store, and one stream of `ClientEvent`s.
/// Messages waiting on the radio are drained when it says so (MSG_WAITING), each stored
/// before the next is asked for.
public actor MeshClient {
    public nonisolated let session: RadioSession
    public nonisolated let store: MeshStore
    public nonisolated let events = EventHub<ClientEvent>()
    /// Set once the radio answered APP_START (and again after each reconnect).
    public private(set) var context: ServiceContext?
    private let now: @Sendable () -> Date
    private var listener: Task<Void, Never>?
    /// MSG_WAITING came while the session was not ready: drain once it is.
    private var drainWhenReady = false
    private var draining = false
    private var drainAgain = false
    /// Messages the radio handed over that the store refused (a full disk, say). The radio
    /// has forgotten them, so they wait here and are written before the next one is taken.
    private var held: [Response] = []
    /// A drain again a little later while `held` waits: no MSG_WAITING may come to start one.
    private var retry: Task<Void, Never>?
    private var unreadableStore = UnreadableStoreNotice()
    static let retryDelay: Duration = .seconds(5)

    public init(session: RadioSession, store: MeshStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.session = session
        self.store = store
        self.now = now
    }

    /// Connects and initializes (Docs/protocol.md §7.1), storing the radio, its contacts since the
    /// stored watermark, its channels and every queued message.
    @discardableResult
    public func connect() async throws -> ServiceContext {
        startListening()
        let now = now
        let setup = SessionSetup(
            contactsSince: { [store] info in
                try store.reader.radio(RadioID(publicKey: info.publicKey)).map(\.contactsLastmod)
            },
            now: { UInt32(now().timeIntervalSince1970) },
            received: { [weak self] answer in try await self?.keepOrHold(answer) },
            initialized: { [weak self] snapshot in try await self?.initialized(snapshot) })
        _ = try await session.connect(setup)
        guard let context else { throw SessionError.linkClosed(command: "CMD_APP_START", url: session.url.text, reason: "closed during initialization") }
        return context
    }

    /// Closes the link and writes what waits in the store's coalescer (positions, samples).
    public func disconnect() async throws {
        await session.close()
        listener?.cancel()
        listener = nil
        retry?.cancel()
        retry = nil
        if let context { _ = try await store.radioDisconnected(context.radio) }
    }

    private func initialized(_ snapshot: RadioSnapshot) async throws {
        let writer = store.writer
        let radio = try await writer.register(snapshot.selfInfo).id
        try await writer.markConnected(radio, at: now())
        _ = try await writer.saveChannels(radio, snapshot.channels)
        let context = ServiceContext(session: session, store: store, radio: radio, selfInfo: snapshot.selfInfo, events: events)
        self.context = context
        try await keeper(radio).keepSync(snapshot.contacts, since: snapshot.contactsSince, watermark: snapshot.contactsWatermark,
                                         announced: snapshot.contactsAnnounced)
    }

    /// A message another client of this radio drained (SYNC_NEXT_MESSAGE sent through the
    /// server's companion re-export): kept and announced as if this client had drained it.
    /// Call before handing the answer on, as the drain itself does. The radio has let go of
    /// it: when the store refuses it, it is held and retried, as the drain's own are.
    func keepDrained(_ answer: Response) async throws { try await keepOrRetry(answer) }

    /// Keeps a message the radio has let go of; when the store refuses it, holds it, tries again
    /// later and throws the store's error.
    private func keepOrRetry(_ answer: Response) async throws {
        do {
            try await keepOrHold(answer)
        } catch {
            retryLater()
            throw error
        }
    }

    private func keeper(_ radio: RadioID) -> ContactKeeper { ContactKeeper(store: store, radio: radio, events: events, now: now) }

    private func keep(_ answer: Response) async throws {
        guard let context else { return }
        try await MessageDrain(context: context, now: now).keep(answer)
    }

    /// Keeps a message the radio handed over, or holds it when the store refuses it.
    private func keepOrHold(_ answer: Response) async throws {
        do {
            try await keep(answer)
        } catch {
            held.append(answer)
            throw error
        }
    }

    /// Writes the held messages, oldest first; throws at the first the store still refuses.
    private func keepHeld() async throws {
        while let first = held.first {
            try await keep(first)
            held.removeFirst()
        }
    }

    // MARK: Pushes

    private func startListening() {
        guard listener == nil else { return }
        let stream = session.subscribe()
        listener = Task { [weak self] in
            for await event in stream { await self?.handle(event) }
        }
    }

    private func handle(_ event: SessionEvent) async {
        switch event {
        case let .state(state):
            events.emit(.connection(state))
            if state == .ready, drainWhenReady || !held.isEmpty {
                drainWhenReady = false
                await drainQueue()
            }
        case let .syncing(step):
            events.emit(.syncProgress(step))
        case let .push(push):
            await handle(push)
        case let .reconnectFailed(attempt, reason):
            events.emit(.problem("reconnect attempt \(attempt) to \(session.url.text) failed: \(reason)"))
        case let .warning(text):
            events.emit(.problem(text))
        case let .lateMessage(answer):
            do {
                try await keepOrRetry(answer)
            } catch {
                events.emit(.problem("a message the radio handed over after its time limit is held until the store takes it: \(error)"))
            }
        case .reconnecting, .reconnected, .stray:
            break
        }
    }

    private func handle(_ push: Push) async {
        switch push {
        case .messageWaiting:
            if await session.state == .ready { await drainQueue() } else { drainWhenReady = true }
        case let .advert(key), let .pathUpdated(key):
            await refreshContact(key)
        case let .newAdvert(contact):
            events.emit(.contactChanged(.discovered(contact)))
        case let .contactDeleted(key):
            // The radio overwrote it to make room (auto-add with overwrite-oldest).
            await markRemoved(key)
        case .contactsFull:
            events.emit(.contactChanged(.tableFull))
        case let .sendConfirmed(code, roundTripMs):
            await confirmDelivery(code, roundTripMs: roundTripMs)
        case let .logRxData(received):
            guard let context else { break }
            let storeFailure = await PacketLog(context: context, now: now).keep(received)
            if let said = unreadableStore.after(storeFailure) { events.emit(.problem(said)) }
        case .loginSuccess, .loginFail, .statusResponse, .telemetryResponse, .binaryResponse, .pathDiscoveryResponse:
            break   // answers the service that asked is waiting for
        default:
            events.emit(.push(push))
        }
    }

    /// An ACK marks the stored message waiting for it delivered, whoever sent it: a Messenger
    /// (which tracks its own too) or another client of this radio (the companion re-export),
    /// whose messages nothing else is waiting for.
    private func confirmDelivery(_ code: AckCode, roundTripMs: UInt32) async {
        guard let context else { return }
        do {
            let before = try store.reader.message(context.radio, ackCode: code)
            guard let before, before.status != .delivered else { return }
            if let delivered = try await store.writer.markDelivered(context.radio, ackCode: code, roundTripMs: Int(roundTripMs)) {
                events.emit(.messageStatus(delivered))
            }
        } catch {
            events.emit(.problem("the ACK \(code) came, but marking its message delivered failed: \(error)"))
        }
    }

    /// One drain at a time; MSG_WAITING during a drain asks for one more pass.
    private func drainQueue() async {
        if draining {
            drainAgain = true
            return
        }
        draining = true
        defer { draining = false }
        repeat {
            drainAgain = false
            do {
                // Nothing more is taken from the radio while the store refuses what it holds.
                try await keepHeld()
                _ = try await session.drain { [weak self] answer in try await self?.keepOrHold(answer) }
            } catch {
                let waiting = held.isEmpty ? "" : " (\(held.count) received message(s) held until the store takes them)"
                events.emit(.problem("message drain on \(session.url.text) stopped: \(error)\(waiting)"))
                if !held.isEmpty { retryLater() }
                return
            }
        } while drainAgain
    }

    private func retryLater() {
        guard retry == nil else { return }
        retry = Task { [weak self] in
            do {
                try await Task.sleep(for: Self.retryDelay)
            } catch {
                return   // cancelled: disconnected
            }
            await self?.retried()
        }
    }

    private func retried() async {
        retry = nil
        if await session.state == .ready { await drainQueue() } else { drainWhenReady = true }
    }

    /// ADVERT / PATH_UPDATED name a contact that changed: read it back and keep it.
    private func refreshContact(_ key: PublicKey) async {
        guard let context else { return }
        do {
            let contact = try await session.expect(.getContactByKey(key)) { if case let .contact(c) = $0 { c } else { nil } }
            try await keeper(context.radio).keep([contact])
        } catch {
            events.emit(.problem("contact \(key.prefix(6).hex) changed but could not be read back: \(error)"))
        }
    }

    private func markRemoved(_ key: PublicKey) async {
        guard let context else { return }
        do {
            try await keeper(context.radio).keepRemoved(key)
        } catch {
            events.emit(.problem("contact \(key.prefix(6).hex) was deleted by the radio but the store kept it: \(error)"))
        }
    }
}
