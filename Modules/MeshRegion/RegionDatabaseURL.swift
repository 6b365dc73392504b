import Foundation

/// A `postgres://user[:password]@host[:port]/database` URL split into what a connection needs.
/// `postgresql://` is accepted too; the port defaults to 5432.
public struct RegionDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    public init(_ text: String) throws(RegionStoreError) {
        func invalid(_ reason: String) -> RegionStoreError { .invalidURL(url: Self.redacted(text), reason: reason) }
        guard let components = URLComponents(string: text) else { throw invalid("it is not a URL") }
        guard let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw invalid("the scheme must be postgres:// (found \"\(components.scheme ?? "")\")")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("it names no user (postgres://USER@host/database)") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else { throw invalid("the path must be one database name (postgres://user@host/DATABASE)") }
        if let port = components.port, !(1...65535).contains(port) { throw invalid("port \(port) is out of range 1-65535") }
        self.user = user
        self.password = components.password
        self.host = host
        self.port = components.port ?? 5432
        self.database = database
    }

    /// host:port, as errors name the server.
    public var server: String { "\(host):\(port)" }

    /// The URL without its password.
    public var description: String { "postgres://\(user)@\(server)/\(database)" }

    /// `text` with any password replaced, for error messages.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
