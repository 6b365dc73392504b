import Foundation
import HTTPTypes
import Hummingbird

/// The rules every request meets before a handler sees it (Docs/server.md, "Security"):
///
/// - With no token (a loopback bind), the Host header must name this machine (127.0.0.0/8,
///   localhost, [::1]): a web page whose DNS name was rebound to 127.0.0.1 gets nothing.
/// - With a token, every /api/ request and /metrics shows it: `Authorization: Bearer TOKEN` or
///   the `meshport_token` cookie that `POST /api/session` sets. Static files and /healthz are open.
/// - State-changing requests (anything but GET, HEAD, OPTIONS) and WebSocket upgrades carrying
///   an Origin header must come from the server's own origin or one allowed with --allow-origin.
/// - A body larger than `maxBodyBytes` is refused before it is read.
struct SecurityPolicy: Sendable {
    static let cookieName = "meshport_token"

    let token: AccessToken?
    let allowedOrigins: Set<String>
    let maxBodyBytes: Int
    let metrics: ServerMetrics

    /// Checks `request`; throws the error to answer with.
    func check(_ request: Request) throws(APIError) {
        let path = request.uri.path
        let host = request.head.authority
        if token == nil, let host, !ListenAddress.isLoopback(host: Self.hostname(host)) {
            metrics.rejected("host")
            throw APIError(.forbidden, "host_not_allowed",
                           "Host \(host) is not this machine: a server without a token answers only requests addressed to 127.0.0.1, localhost or [::1]")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodyBytes {
            metrics.rejected("body_size")
            throw APIError(.contentTooLarge, "body_too_large", "the request body is \(length) bytes; at most \(maxBodyBytes) are accepted")
        }
        if needsToken(path: path, method: request.method), let token, !Self.presents(token, request) {
            metrics.rejected("token")
            throw APIError(.unauthorized, "unauthorized",
                           "this server needs its token: send `Authorization: Bearer TOKEN` (the token is in \(token.path)) or log in with POST /api/session",
                           headers: [.wwwAuthenticate: "Bearer realm=\"meshport\""])
        }
        if Self.changesState(request), let origin = request.headers[.origin], !originAllowed(origin, host: host) {
            metrics.rejected("origin")
            throw APIError(.forbidden, "origin_not_allowed",
                           "requests from \(origin) may not change anything here; pages served by this server may (or add --allow-origin \(origin))")
        }
    }

    /// Static files (the web UI itself), the health check and the login are open.
    func needsToken(path: String, method: HTTPRequest.Method) -> Bool {
        if path == "/healthz" { return false }
        if path == "/api/session" && method == .post { return false }
        return path.hasPrefix("/api/") || path == "/api" || path == "/metrics"
    }

    static func presents(_ token: AccessToken, _ request: Request) -> Bool {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", token.matches(parts[1].trimmingCharacters(in: .whitespaces)[...]) { return true }
        }
        if let cookie = request.cookies[cookieName], token.matches(cookie.value[...]) { return true }
        return false
    }

    /// Anything but GET, HEAD and OPTIONS, and every WebSocket upgrade.
    static func changesState(_ request: Request) -> Bool {
        if ![.get, .head, .options].contains(request.method) { return true }
        return request.headers[.upgrade]?.lowercased() == "websocket"
    }

    /// The request's own origin (http or https and its Host), or one allowed by name.
    func originAllowed(_ origin: String, host: String?) -> Bool {
        if allowedOrigins.contains(origin) { return true }
        guard let host, origin != "null" else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// "127.0.0.1:8080" -> "127.0.0.1", "[::1]:8080" -> "::1".
    static func hostname(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<close]) }
        if let colon = host.lastIndex(of: ":") { return String(host[..<colon]) }
        return host
    }
}

/// Applies `SecurityPolicy` to every request, counts answers for /metrics and adds the
/// headers that keep browsers from sniffing types or framing the UI. Error messages pass
/// through `redact`: an error from a link names its URL, and a BLE URL holds the pairing PIN.
struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: SecurityPolicy
    let redact: @Sendable (String) -> String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            try policy.check(request)
            response = try await next(request, context)
        } catch {
            response = try APIError.from(error).redacted(by: redact).response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        policy.metrics.request(method: request.method.rawValue, status: response.status.code, took: ContinuousClock.now - start)
        return response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
