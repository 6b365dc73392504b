import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// One radio the server serves: its `MeshClient`, kept connected on its own (a radio that is
/// off or unplugged is retried with backoff and never holds up the others), the services made
/// once it is up, and what the API reports of it.
actor ServedRadio {
    /// The radio's place in the --radio list: its id in the API.
    nonisolated let id: String
    /// The URL as shown (a BLE PIN hidden).
    nonisolated let url: String
    private nonisolated let shownURL: ShownURL
    nonisolated let client: MeshClient
    private let passwordFile: String?
    private let statsInterval: Duration?
    private let events: EventPublisher
    private let retry = ReconnectPolicy.standard
    /// `serve --mqtt`: this radio's gateway uplinks.
    nonisolated let uplinks: RadioUplinks
    private var figures: RadioFigures
    /// Hears whether this radio is up, for systemd's status line.
    private let readiness: ServeReadiness

    private(set) var state: RadioSession.State = .disconnected
    private(set) var lastError: String?
    private(set) var sync: SyncStep?
    private(set) var context: ServiceContext?
    /// The radio's identity and settings as last read: from the connection, then from each
    /// setting changed through the API (the context keeps the ones of the connection).
    private(set) var selfInfo: SelfInfo?
    private(set) var connectedAt: Date?
    /// One messenger and one remote-node gate per radio identity: they hold what is in flight.
    private var messenger: Messenger?
    private var remoteNodes: RemoteNodes?
    private var telemetryService: TelemetryService?
    private var pump: Task<Void, Never>?
    private var disconnectWaiter: CheckedContinuation<Void, Never>?
    /// `.disconnected` events seen so far; `stopped` once `stop()` began.
    private var disconnects = 0
    private var stopped = false

    init(id: String, client: MeshClient, passwordFile: String?, statsInterval: Duration?, events: EventPublisher, uplinks: RadioUplinks,
         figures: RadioFigures, readiness: ServeReadiness) {
        self.id = id
        self.readiness = readiness
        self.uplinks = uplinks
        self.figures = figures
        shownURL = ShownURL(client.session.url)
        url = shownURL.shown
        self.client = client
        self.passwordFile = passwordFile
        self.statsInterval = statsInterval
        self.events = events
    }

    /// Connects, and connects again whenever the session gives up, until cancelled. The
    /// session itself reconnects a link lost while ready; this loop covers the first
    /// connection and a session that ended.
    func run() async {
        startPump()
        var attempt = 0
        while !Task.isCancelled, !stopped {
            do {
                let context = try await client.connect()
                attempt = 0
                lastError = nil
                adopt(context)
                await waitUntilDisconnected()
            } catch {
                if Task.isCancelled || stopped { return }
                let reason = shownURL.redact("\(error)")
                lastError = reason
                readiness.radio(id, problem: reason)
                attempt += 1
                events.problem(radio: id, "connecting to \(url) failed (attempt \(attempt)): \(reason)")
            }
            if stopped { break }
            do {
                try await Task.sleep(for: retry.delay(before: max(attempt, 1)))
            } catch {
                break
            }
        }
        // A connection that completed while stop() was closing the link is closed here, so
        // nothing writes to the store once it is closed.
        if stopped, await client.session.state != .disconnected {
            do {
                try await client.disconnect()
            } catch {
                events.problem(radio: id, "closing \(url) after stopping: \(shownURL.redact("\(error)"))")
            }
        }
    }

    /// Stops following messages, closes the link, and writes what waits in the coalescer.
    func stop() async throws {
        stopped = true
        wakeWaiter()
        await messenger?.stop()
        await telemetryService?.stopSampling()
        await uplinks.stop()
        try await client.disconnect()
        pump?.cancel()
        wakeWaiter()
    }

    private func adopt(_ new: ServiceContext) {
        let sameRadio = context?.radio == new.radio
        context = new
        selfInfo = new.selfInfo
        connectedAt = Date()
        if sameRadio, let messenger {
            startUplinks(new, messenger: messenger)
            return
        }
        // Another radio answered on this link (or the first connection): fresh services.
        let messenger = Messenger(context: new)
        self.messenger = messenger
        remoteNodes = RemoteNodes(context: new, vault: passwordFile.map { PasswordVault(path: $0) })
        let telemetry = TelemetryService(context: new)
        telemetryService = telemetry
        if let statsInterval {
            Task { await telemetry.startSampling(every: statsInterval) { [weak self] stats in await self?.statsRead(stats) } }
        }
        startUplinks(new, messenger: messenger)
    }

    /// The uplinks share the radio's messenger: one holds what is in flight (ACK codes).
    private func startUplinks(_ context: ServiceContext, messenger: Messenger) {
        let uplinks = self.uplinks
        Task { await uplinks.radioReady(context, messenger: messenger) }
    }

    /// Returns once the session has ended (`.disconnected` after giving up, or closed) or the
    /// task is cancelled. A disconnection seen while the session's state was being asked is
    /// not missed: `disconnects` counts them, and the waiter is only parked when none came.
    private func waitUntilDisconnected() async {
        let seen = disconnects
        if await client.session.state == .disconnected || disconnects != seen { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                if Task.isCancelled || stopped || disconnects != seen {
                    waiter.resume()
                } else {
                    disconnectWaiter = waiter
                }
            }
        } onCancel: {
            Task { await self.wakeWaiter() }
        }
    }

    private func wakeWaiter() {
        disconnectWaiter?.resume()
        disconnectWaiter = nil
    }

    private func startPump() {
        guard pump == nil else { return }
        let stream = client.events.subscribe()
        pump = Task { [weak self] in
            for await event in stream { await self?.handle(event) }
        }
    }

    private func handle(_ event: ClientEvent) {
        figures.observe(event)
        switch event {
        case let .connection(new):
            let was = state
            state = new
            if new == .ready {
                readiness.radio(id, problem: nil)
            } else if was == .ready {
                readiness.radio(id, problem: "the link was lost (\(new))")
            }
            if new == .ready {
                sync = nil
                connectedAt = Date()
            }
            if new == .disconnected {
                disconnects += 1
                wakeWaiter()
            }
        case let .syncProgress(step):
            sync = step
        default:
            break
        }
        if let text = event.problemText {
            events.publish(radio: id, .problem(shownURL.redact(text)))
        } else {
            events.publish(radio: id, event)
        }
    }

    /// The radio's statistics as the sampler or the API read them.
    func statsRead(_ stats: LocalStats) { figures.read(stats, at: Date()) }

    /// Brings the figures read at scrape time up to date, for /metrics.
    func readFigures() async {
        figures.pendingSends(await messenger?.pendingSends ?? 0)
        await uplinks.readFigures()
    }

    /// `text` with this radio's BLE PIN hidden.
    nonisolated func redact(_ text: String) -> String { shownURL.redact(text) }

    // MARK: What the API uses

    /// The radio's context, or why there is none yet.
    func ready() throws(APIError) -> ServiceContext {
        guard let context, state == .ready else {
            throw .radioNotReady(id: id, state: "\(state)", lastError: lastError)
        }
        return context
    }

    /// The context of the last connection, for reading the store while the radio is away.
    func known() throws(APIError) -> ServiceContext {
        guard let context else { throw .radioNotReady(id: id, state: "\(state)", lastError: lastError) }
        return context
    }

    func services() throws(APIError) -> (context: ServiceContext, messenger: Messenger, remote: RemoteNodes, telemetry: TelemetryService) {
        let context = try ready()
        guard let messenger, let remoteNodes, let telemetryService else { throw .radioNotReady(id: id, state: "\(state)", lastError: lastError) }
        return (context, messenger, remoteNodes, telemetryService)
    }

    /// The radio's settings as the radio reported them after a change made through the API.
    func settingsChanged(_ info: SelfInfo) {
        guard info.publicKey == context?.selfInfo.publicKey else { return }
        selfInfo = info
    }

    /// SELF_INFO as last read, while the radio is ready.
    func currentSelf() throws(APIError) -> SelfInfo {
        let context = try ready()
        return selfInfo ?? context.selfInfo
    }

    var summary: RadioSummary {
        RadioSummary(id: id, url: url, state: state, lastError: lastError, sync: sync, selfInfo: selfInfo, connectedAt: connectedAt)
    }
}

/// A radio as `/api/radios` lists it.
struct RadioSummary: Sendable {
    var id: String
    var url: String
    var state: RadioSession.State
    var lastError: String?
    var sync: SyncStep?
    var selfInfo: SelfInfo?
    var connectedAt: Date?
}
