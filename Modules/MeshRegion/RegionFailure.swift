import NIOCore
import NIOSSL
import PostgresNIO

/// How a postgres-nio failure is reported: which kind it is, and the database's own words.
enum RegionFailure {
    enum Kind {
        /// The connection is gone or the server is going away: retry once it is back.
        case away
        /// The server could not do it now (deadlock, resources): retry.
        case busy
        /// The data was refused (a check, a range, an encoding): the batch is bad.
        case badData
        case other
    }

    static func kind(of error: any Error) -> Kind {
        guard let error = error as? PSQLError else {
            return error is ChannelError || error is IOError ? .away : .other
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return .away
        case .server: break
        default: return .other
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? ""
        // SQLSTATE classes: 08 connection, 57P0x shutdown, 53 resources, 40 rollback, 22 data, 23 integrity.
        if state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) { return .away }
        if state.hasPrefix("53") || state.hasPrefix("40") || state == "55P03" { return .busy }
        // An observation whose day partition another worker's retention dropped meanwhile: made again on retry.
        if state == "23514", message.contains("no partition") { return .busy }
        if state.hasPrefix("22") || state.hasPrefix("23") { return .badData }
        return .other
    }

    /// A connection attempt that failed: the server's authentication rules refused it (SQLSTATE
    /// class 28: user, password, or pg_hba.conf, which may ask for TLS), TLS failed (the server
    /// offers none, or its certificate did not pass), or the server is not there (yet).
    enum ConnectKind {
        case refused
        case tls
        case unreachable
    }

    static func connectKind(of error: any Error) -> ConnectKind {
        guard let error = error as? PSQLError else { return isTLS(error) ? .tls : .unreachable }
        switch error.code {
        case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest: return .tls
        case .server: return (error.serverInfo?[.sqlState] ?? "").hasPrefix("28") ? .refused : .unreachable
        default: return error.underlying.map(isTLS) ?? false ? .tls : .unreachable
        }
    }

    private static func isTLS(_ error: any Error) -> Bool {
        error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError
    }

    /// The server's message, detail and SQLSTATE, or what failed on the client's side.
    static func reason(_ error: any Error) -> String {
        if let error = error as? RegionStoreError { return error.description }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate is not made out to the host the URL names"
        }
        guard let error = error as? PSQLError else { return "\(error)" }
        if error.code == .sslUnsupported { return "the server does not offer TLS" }
        if let info = error.serverInfo, let message = info[.message] {
            var text = message
            if let detail = info[.detail] { text += " (\(detail))" }
            if let state = info[.sqlState] { text += " [SQLSTATE \(state)]" }
            return text
        }
        let code = String(describing: error.code)
        guard let underlying = error.underlying else { return code }
        return isTLS(underlying) ? reason(underlying) : "\(code): \(underlying)"
    }
}
