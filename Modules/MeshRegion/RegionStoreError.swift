/// What went wrong with the region store, each case a sentence for people. `retryLater` tells a
/// writer whether to hold the batch and try again (the database is away) or to give it up (the
/// batch itself is bad).
public enum RegionStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `postgres://` URL does not parse: `reason` says what and where.
    case invalidURL(url: String, reason: String)
    /// No connection could be made to `server` (host:port).
    case unreachable(server: String, reason: String)
    /// The server's authentication rules refused the connection (user, password, or a
    /// pg_hba.conf that asks for TLS); `url` is the database URL without its password.
    case refused(url: String, reason: String)
    /// TLS to the server failed: it offers none where the URL requires it, or its certificate
    /// did not pass the URL's `sslmode` and `sslrootcert`.
    case tlsFailed(url: String, reason: String)
    /// An open connection broke, or the server is shutting down or not accepting work now.
    case away(server: String, reason: String)
    /// Migration `name` failed and was rolled back; the schema stays at the migration before it.
    case migrationFailed(name: String, reason: String)
    /// The database holds migrations this build does not know: it was migrated by a newer Meshport.
    case schemaTooNew(unknown: [String])
    /// The server is up but could not do the work now (a deadlock with another writer, out of
    /// connections or resources).
    case busy(server: String, reason: String)
    /// The batch cannot be written as it is: a value is out of range, or the database refused it.
    case badBatch(reason: String)
    /// A write failed for another reason (the database's own words).
    case writeFailed(reason: String)
    /// Applying the retention setting failed; what was dropped before stays dropped.
    case retentionFailed(reason: String)
    /// The store was closed.
    case closed

    /// True when the same call may succeed later unchanged: the database was away or busy.
    public var retryLater: Bool {
        switch self {
        case .unreachable, .away, .busy: true
        case .invalidURL, .refused, .tlsFailed, .migrationFailed, .schemaTooNew, .badBatch, .writeFailed, .retentionFailed, .closed: false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "The PostgreSQL URL \"\(url)\" is not valid: \(reason)."
        case .unreachable(let server, let reason):
            "PostgreSQL at \(server) cannot be reached (\(reason)): check the host and port in the URL and that the server is running; writes are retried."
        case .refused(let url, let reason):
            "PostgreSQL refused the connection to \"\(url)\" (\(reason)): check the URL's user, password and sslmode against the server's pg_hba.conf."
        case .tlsFailed(let url, let reason):
            "TLS to the PostgreSQL server of \"\(url)\" failed (\(reason)): check the URL's sslmode and sslrootcert against the server's certificate."
        case .away(let server, let reason):
            "The connection to PostgreSQL at \(server) was lost (\(reason)): the batch was not written and is retried once the server is back."
        case .busy(let server, let reason):
            "PostgreSQL at \(server) could not take the batch now (\(reason)): nothing of it was written and it is retried."
        case .migrationFailed(let name, let reason):
            "Region schema migration \(name) failed and was rolled back: \(reason)."
        case .schemaTooNew(let unknown):
            "The region database was migrated by a newer Meshport (unknown migrations \(unknown.joined(separator: ", "))): upgrade this Meshport."
        case .badBatch(let reason):
            "The batch cannot be written: \(reason)."
        case .writeFailed(let reason):
            "Writing the batch failed: \(reason)."
        case .retentionFailed(let reason):
            "Applying the retention setting failed: \(reason)."
        case .closed:
            "The region store is closed: connect a new one to write again."
        }
    }
}
