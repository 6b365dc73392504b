import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import MeshRegion
import MeshServices
import MeshStore
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `meshport serve`: every radio kept connected on its own, the REST API and the events
/// WebSocket over HTTP, the companion protocol re-exported over TCP, the web UI's files.
/// Runs until SIGINT or SIGTERM, then stops accepting, closes the radios' links, writes what
/// waits in the store and closes it.
public enum MeshportServer {
    /// Routes a program embedding the server adds beside the API's, given what publishes
    /// events (Tests/Tools/TestServe adds synthetic events).
    package typealias ExtraRoutes = @Sendable (Router<APIRequestContext>, EventPublisher) -> Void

    /// `announce` hears each address once it is listening (the tests and scripts read them).
    public static func run(_ config: ServeConfiguration, announce: @escaping @Sendable (String) -> Void) async throws {
        try await run(config, extraRoutes: nil, announce: announce)
    }

    package static func run(_ config: ServeConfiguration, extraRoutes: ExtraRoutes?, announce: @escaping @Sendable (String) -> Void) async throws {
        guard !config.radios.isEmpty else { throw ServeError.noRadio }
        guard config.companions.count <= config.radios.count else { throw ServeError.tooManyCompanions(config.companions.count, radios: config.radios.count) }
        var logger = Logger(label: "meshport.serve")
        logger.logLevel = Logger.Level(rawValue: config.logLevel) ?? .notice

        let token: AccessToken?
        if let path = config.tokenFile {
            token = try AccessToken.loadOrCreate(at: path)
        } else if !config.http.isLoopback {
            throw ServeError.tokenRequired(config.http)
        } else {
            token = nil
        }
        let web = try WebFiles(config)
        let store = try MeshStore.open(at: config.databasePath)

        let notifier: SystemdNotifier?
        do {
            notifier = try SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ServeError.systemd(error.description)
        }
        let readiness = ServeReadiness(listeners: 1 + config.companions.count,
                                       radios: config.radios.indices.map { (String($0), ShownURL(config.radios[$0].url).shown) })
        let metrics = ServerMetrics()
        let publisher = EventPublisher(broadcaster: EventBroadcaster(capacity: config.eventBuffer), logger: logger, metrics: metrics)
        let radios = config.radios.enumerated().map { index, target in
            var radioLogger = logger
            radioLogger[metadataKey: "radio"] = "\(index)"
            let session = RadioSession(url: target.url, clientName: "meshport", commandTimeout: config.commandTimeout, reconnect: .standard,
                                       logger: radioLogger, transport: target.transport)
            let uplinks = RadioUplinks(radioID: String(index), targets: config.uplinks, folder: config.uplinkFolder.map { URL(fileURLWithPath: $0) },
                                       logger: logger, events: publisher, metrics: metrics)
            return ServedRadio(id: String(index), client: MeshClient(session: session, store: store), passwordFile: config.passwordFile,
                               statsInterval: config.statsInterval, events: publisher, uplinks: uplinks, figures: metrics.radio(String(index)),
                               readiness: readiness)
        }
        let policy = SecurityPolicy(token: token, allowedOrigins: config.allowedOrigins, maxBodyBytes: config.maxBodyBytes, metrics: metrics)
        let region: RegionHistory?
        do {
            region = try config.history.map { url throws(RegionHistoryError) in try RegionHistory(url: url) }
        } catch {
            throw ServeError.history(error.description)
        }
        if let url = config.history { try await prepareHistory(url, logger: logger) }
        let served = Served(radios: radios, store: store, publisher: publisher, metrics: metrics, policy: policy, region: region)

        let router = Router(context: APIRequestContext.self)
        router.add(middleware: SecurityMiddleware(policy: policy) { text in radios.reduce(text) { $1.redact($0) } })
        served.addRoutes(to: router, web: web)
        extraRoutes?(router, publisher)
        router.answerOtherMethods()
        let sockets = Router(context: APIRequestContext.self)
        served.addEventsSocket(to: sockets)

        let socketResponder = sockets.buildResponder()
        let http = config.http
        let tokenNote = token.map { " (token in \($0.path)\($0.created ? ", just made" : ""))" } ?? ""
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedUpgradeChannel(inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: socketResponder,
                    configuration: .init(ws: .init(autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(5)))), metrics: metrics)
            },
            configuration: ApplicationConfiguration(address: .hostname(http.host, port: http.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? http.port
                announce("meshport serve: listening on http://\(ListenAddress(host: http.host, port: port))\(tokenNote)")
                readiness.listenerBound()
            },
            logger: logger)

        let companions = config.companions.enumerated().map { index, address in
            CompanionEndpoint(address: address, radio: radios[index], metrics: metrics, logger: logger) { line in
                announce(line)
                readiness.listenerBound()
            }
        }
        // Started last, so shutdown tells systemd first (STOPPING=1).
        let systemd = notifier.map { notifier in
            SystemdService(notifier: notifier, readiness: readiness, alive: { await serverAlive(radios) }, logger: logger)
        }
        let radiosService = RadiosService(radios: radios, store: store, publisher: publisher, logger: logger)
        // Shut down in reverse: first the HTTP server, then the companion ports, then the radios and the store.
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: radiosService)] + companions.map { .init(service: $0) } + [.init(service: app)]
                + (systemd.map { [.init(service: $0)] } ?? []),
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await region?.close()
    }
}

/// True once every event loop (HTTP, companion ports) has run a no-op and every radio's actor
/// has answered; it never returns while one of them hangs (SystemdService's watchdog).
private func serverAlive(_ radios: [ServedRadio]) async -> Bool {
    for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
        do {
            try await loop.submit {}.get()
        } catch {
            return false
        }
    }
    for radio in radios { _ = await radio.state }
    return true
}

/// Brings the region database's schema up to this build's (what `meshport ingest` also does),
/// so the server may start before any worker. A database that is away is not fatal: the region
/// routes answer 503 until it is back.
private func prepareHistory(_ url: String, logger: Logger) async throws(ServeError) {
    do throws(RegionStoreError) {
        let store = try await RegionStore.connect(url: url, log: { logger.notice("\($0)") })
        do throws(RegionStoreError) {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    } catch let error where error.retryLater {
        logger.warning("region history: \(error.description) The region routes answer 503 until it answers.")
    } catch {
        throw .history(error.description)
    }
}

/// Runs each radio's connection loop; on shutdown closes their links and the store, so every
/// coalesced write (positions, telemetry, statistics) is on disk before the process exits.
struct RadiosService: Service {
    let radios: [ServedRadio]
    let store: MeshStore
    let publisher: EventPublisher
    let logger: Logger

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            for radio in radios { group.addTask { await radio.run() } }
            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled rather than asked to stop: close all the same.
            }
            group.cancelAll()
            for radio in radios {
                do {
                    try await radio.stop()
                } catch {
                    logger.error("closing radio \(radio.id) (\(radio.url)): \(radio.redact("\(error)"))")
                }
            }
        }
        publisher.broadcaster.finishAll()
        let report = try await store.close()
        logger.notice("store closed: \(report.description)")
    }
}
