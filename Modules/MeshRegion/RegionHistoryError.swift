/// Why the region history could not be read, as a sentence for people.
public enum RegionHistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `postgres://` URL does not parse.
    case invalidURL(url: String, reason: String)
    /// The database is away or busy: the same read may work later.
    case unavailable(server: String, reason: String)
    /// The database refused the read (its own words).
    case failed(reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "The PostgreSQL URL \"\(url)\" is not valid: \(reason)."
        case .unavailable(let server, let reason):
            "The region history at \(server) cannot be read now (\(reason)): check that PostgreSQL is running; try again."
        case .failed(let reason): "Reading the region history failed: \(reason)."
        }
    }

    static func from(_ error: any Error, server: String) -> RegionHistoryError {
        switch RegionFailure.kind(of: error) {
        case .away, .busy: .unavailable(server: server, reason: RegionFailure.reason(error))
        case .badData, .other: .failed(reason: RegionFailure.reason(error))
        }
    }
}
