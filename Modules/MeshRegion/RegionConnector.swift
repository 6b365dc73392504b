import Logging
import PostgresNIO

/// Makes the connections to one region database: its URL, and the TLS setting with the
/// certificate files read once, when the store or history is made (a renewed certificate is
/// read at the next start).
struct RegionConnector: Sendable {
    let url: RegionDatabaseURL
    private let tls: PostgresConnection.Configuration.TLS

    init(url: RegionDatabaseURL) throws(RegionStoreError) {
        self.url = url
        do {
            tls = try url.tls.connectionTLS()
        } catch {
            throw .invalidURL(url: url.description, reason: error.reason)
        }
    }

    /// A new connection, its session in UTC (partition days and the hourly counts are UTC days
    /// and hours). A connection whose setup fails is closed, not dropped open (postgres-nio
    /// traps on that).
    func connect(id: Int, logger: Logger) async throws -> PostgresConnection {
        let configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user, password: url.password,
                                                             database: url.database, tls: tls)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        do {
            try await connection.query("SET TIME ZONE 'UTC'", logger: logger)
        } catch {
            RegionStore.closeLater(connection)
            throw error
        }
        return connection
    }
}
