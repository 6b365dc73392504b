import Logging
import NIOCore
import PostgresNIO

/// The read side's connections: one per read in progress, idle ones kept for the next (at most
/// `keepIdle`). A connection that failed is closed, never reused.
actor RegionConnections {
    /// postgres-nio's own logging is not ours to print; failures reach the caller as errors.
    static let logger = Logger(label: "meshport.region.read", factory: { _ in SwiftLogNoOpLogHandler() })

    private let connector: RegionConnector
    private let keepIdle: Int
    private var idle: [PostgresConnection] = []
    private var made = 0

    init(connector: RegionConnector, keepIdle: Int) {
        self.connector = connector
        self.keepIdle = max(0, keepIdle)
    }

    deinit {
        for connection in idle { RegionStore.closeLater(connection) }
    }

    func take() async throws(RegionHistoryError) -> PostgresConnection {
        while let connection = idle.popLast() {
            if !connection.isClosed { return connection }
        }
        made += 1
        do {
            return try await connector.connect(id: made, logger: Self.logger)
        } catch {
            throw .unavailable(server: connector.url.server, reason: RegionFailure.reason(error))
        }
    }

    func give(_ connection: PostgresConnection) async {
        if idle.count < keepIdle, !connection.isClosed {
            idle.append(connection)
        } else {
            await close(connection)
        }
    }

    func discard(_ connection: PostgresConnection) async { await close(connection) }

    func closeIdle() async {
        let closing = idle
        idle = []
        for connection in closing { await close(connection) }
    }

    /// A close that fails leaves nothing to do: the connection is dropped either way.
    private func close(_ connection: PostgresConnection) async {
        do { try await connection.close() } catch { return }
    }
}
