import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// One radio the server serves: its `MeshClient`, kept connected on its own (a radio that is
/// off or unplugged is retried with backoff and never holds up the others), the services made
/// once it is up, and what the API reports of it.
actor RadioHandle {
    /// The radio's place in the --radio list: its id in the API.
    nonisolated let id: String
    nonisolated let url: String
    nonisolated let client: MeshClient
    private let passwordFile: String?
    private let statsInterval: Duration?
    private let events: EventPublisher
    private let retry = ReconnectPolicy.standard

    private(set) var state: RadioSession.State = .disconnected
    private(set) var lastError: String?
    private(set) var sync: SyncStep?
    private(set) var context: RadioContext?
    private(set) var connectedAt: Date?
    /// One messenger and one remote-node gate per radio identity: they hold what is in flight.
    private var messenger: Messenger?
    private var remoteNodes: RemoteNodes?
    private var telemetryService: TelemetryService?
    private var pump: Task<Void, Never>?
    private var disconnectWaiter: CheckedContinuation<Void, Never>?

    init(id: String, client: MeshClient, passwordFile: String?, statsInterval: Duration?, events: EventPublisher) {
        self.id = id
        url = client.session.url.text
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
        while !Task.isCancelled {
            do {
                let context = try await client.connect()
                attempt = 0
                lastError = nil
                adopt(context)
                await waitUntilDisconnected()
            } catch {
                if Task.isCancelled { return }
                lastError = "\(error)"
                attempt += 1
                events.problem(radio: id, "connecting to \(url) failed (attempt \(attempt)): \(error)")
            }
            do {
                try await Task.sleep(for: retry.delay(before: max(attempt, 1)))
            } catch {
                return
            }
        }
    }

    /// Stops following messages, closes the link, and writes what waits in the coalescer.
    func stop() async throws {
        await messenger?.stop()
        await telemetryService?.stopSampling()
        try await client.disconnect()
        pump?.cancel()
        disconnectWaiter?.resume()
        disconnectWaiter = nil
    }

    private func adopt(_ new: RadioContext) {
        let sameRadio = context?.radio == new.radio
        context = new
        connectedAt = Date()
        guard !sameRadio || messenger == nil else { return }
        // Another radio answered on this link (or the first connection): fresh services.
        messenger = Messenger(context: new)
        remoteNodes = RemoteNodes(context: new, vault: passwordFile.map { PasswordVault(path: $0) })
        let telemetry = TelemetryService(context: new)
        telemetryService = telemetry
        if let statsInterval { Task { await telemetry.startSampling(every: statsInterval) } }
    }

    private func waitUntilDisconnected() async {
        while !Task.isCancelled {
            if await client.session.state == .disconnected { return }
            await withCheckedContinuation { disconnectWaiter = $0 }
        }
    }

    private func startPump() {
        guard pump == nil else { return }
        let stream = client.events.subscribe()
        pump = Task { [weak self] in
            for await event in stream { await self?.handle(event) }
        }
    }

    private func handle(_ event: ClientEvent) {
        switch event {
        case let .connection(new):
            state = new
            if new == .ready {
                sync = nil
                connectedAt = Date()
            }
            if new == .disconnected, let waiter = disconnectWaiter {
                disconnectWaiter = nil
                waiter.resume()
            }
        case let .syncProgress(step):
            sync = step
        default:
            break
        }
        events.publish(radio: id, event, context: context)
    }

    // MARK: What the API uses

    /// The radio's context, or why there is none yet.
    func ready() throws(APIError) -> RadioContext {
        guard let context, state == .ready else {
            throw .radioNotReady(id: id, state: "\(state)", lastError: lastError)
        }
        return context
    }

    /// The context of the last connection, for reading the store while the radio is away.
    func known() throws(APIError) -> RadioContext {
        guard let context else { throw .radioNotReady(id: id, state: "\(state)", lastError: lastError) }
        return context
    }

    func services() throws(APIError) -> (context: RadioContext, messenger: Messenger, remote: RemoteNodes, telemetry: TelemetryService) {
        let context = try ready()
        guard let messenger, let remoteNodes, let telemetryService else { throw .radioNotReady(id: id, state: "\(state)", lastError: lastError) }
        return (context, messenger, remoteNodes, telemetryService)
    }

    var summary: RadioSummary {
        RadioSummary(id: id, url: url, state: state, lastError: lastError, sync: sync, selfInfo: context?.selfInfo, connectedAt: connectedAt)
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
