import Foundation

/// A `postgres://user[:password]@host[:port]/database[?sslmode=...]` URL split into what a
/// connection needs. `postgresql://` is accepted too; the port defaults to 5432; the query
/// takes libpq's TLS parameters (`RegionTLS`) and nothing else.
public struct RegionDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: RegionTLS

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
        tls = try RegionTLS(parameters: components.queryItems ?? [], invalid: invalid)
        self.user = user
        self.password = components.password
        self.host = host
        self.port = components.port ?? 5432
        self.database = database
    }

    /// host:port, as errors name the server.
    public var server: String { "\(host):\(port)" }

    /// The URL without its password, with its TLS parameters when they are not the default.
    public var description: String {
        let query = tls.queryItems.isEmpty ? "" : "?" + Self.query(tls.queryItems)
        return "postgres://\(user)@\(server)/\(database)\(query)"
    }

    /// `text` with any password replaced (the user's, or a `password` parameter libpq would
    /// take), for error messages.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return text }
        let items = components.queryItems ?? []
        let passwordParameter = items.contains(where: { $0.name == "password" })
        guard components.password != nil || passwordParameter else { return text }
        if components.password != nil { components.password = "***" }
        if passwordParameter {
            components.percentEncodedQuery = Self.query(items.map { $0.name == "password" ? URLQueryItem(name: $0.name, value: "***") : $0 })
        }
        return components.string ?? text
    }

    /// Query items as URL text, `&`, `=`, `+` and `#` in names and values escaped.
    private static func query(_ items: [URLQueryItem]) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return items.map { item in escaped(item.name) + (item.value.map { "=" + escaped($0) } ?? "") }.joined(separator: "&")
    }
}
