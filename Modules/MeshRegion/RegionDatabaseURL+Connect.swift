import Logging
import PostgresNIO

extension RegionDatabaseURL {
    /// A new connection to this database, its session in UTC (partition days and the hourly
    /// counts are UTC days and hours). A connection whose setup fails is closed, not dropped
    /// open (postgres-nio traps on that).
    func connect(id: Int, logger: Logger) async throws -> PostgresConnection {
        let configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                             database: database, tls: .disable)
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
