import MeshCodec
import MeshServices
import MeshTransport

/// Meshport as an app uses it: a RadioSession over the loaded TCP driver plugin.
struct SessionClient: BenchClient {
    let session: RadioSession

    /// Opens the link and says APP_START; the rest of initialization (which would sync
    /// contacts and drain the queue) is what the workload measures, step by step.
    static func connect(_ url: TransportURL) async throws -> SessionClient {
        let loader = PluginLoader.loadDefault()
        guard let driver = loader.driver(for: url.scheme) else {
            throw BenchError("no driver for \(url.scheme):// beside this executable; build MeshportDriverTCP in the same configuration")
        }
        let session = RadioSession(url: url, clientName: "meshport-bench", reconnect: .never) { PluginTransport(url: url, driver: driver) }
        try await session.open()
        _ = try await session.expect(.appStart(AppStart(appName: "meshport-bench"))) { if case let .selfInfo(v) = $0 { v } else { nil } }
        return SessionClient(session: session)
    }

    func roundTrip() async throws {
        _ = try await session.expect(.deviceQuery(appTargetVersion: 3)) { if case let .deviceInfo(v) = $0 { v } else { nil } }
    }

    func syncContacts() async throws -> Int { try await session.syncContacts().contacts.count }

    func drain() async throws -> Int { try await session.drain().count }

    func close() async { await session.close() }
}
