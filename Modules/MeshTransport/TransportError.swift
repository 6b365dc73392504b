/// Why a link failed. Each case says what happened on which link and, where there is one, the fix.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    case linkLost(String, reason: String)
    case timeout(String, operation: String, seconds: Double)
    case refused(String, reason: String)
    case notFound(String, reason: String)
    case permissionDenied(String, reason: String, fix: String)
    case busy(String, reason: String)
    /// The URL text, the bad part quoted, and why.
    case invalidURL(String, part: String, reason: String)
    case noDriver(scheme: String, url: String, loaded: [String])
    case driver(String, reason: String)
    case closed(String)

    public var description: String {
        switch self {
        case let .linkLost(url, reason): "link lost on \(url): \(reason)"
        // A driver's timeout carries its own sentence (seconds 0): shown as it is.
        case let .timeout(url, op, s): s > 0 ? "timeout after \(s.formatted2) s waiting for \(op) on \(url)" : "\(op) on \(url)"
        case let .refused(url, reason): "connection refused by \(url): \(reason)"
        case let .notFound(url, reason): "not found: \(url): \(reason)"
        case let .permissionDenied(url, reason, fix): "permission denied on \(url): \(reason). Fix: \(fix)"
        case let .busy(url, reason): "\(url) is busy: \(reason)"
        // A driver names the bad part in its reason; the whole URL is not quoted twice.
        case let .invalidURL(url, part, reason): part == url ? "invalid transport URL \"\(url)\": \(reason)" : "invalid transport URL \"\(url)\": \"\(part)\": \(reason)"
        case let .noDriver(scheme, url, loaded):
            "no driver for \"\(scheme)\" (in \(url)); loaded schemes: \(loaded.isEmpty ? "none" : loaded.joined(separator: ", ")). Run `meshport plugins` to see refused drivers."
        case let .driver(url, reason): "driver error on \(url): \(reason)"
        case let .closed(url): "\(url) is closed"
        }
    }
}

extension Double {
    var formatted2: String {
        let scaled = (self * 100).rounded() / 100
        return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }
}
