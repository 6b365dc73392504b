/// A transport URL that cannot be used: the URL, the bad part quoted, and why (with the fix
/// where there is one).
public struct TransportURLError: Error, Hashable, Sendable, CustomStringConvertible {
    public let url: String
    /// The offending part; the whole URL when the fault is not in one part.
    public let part: String
    public let reason: String

    public init(_ url: String, part: String, reason: String) {
        self.url = url
        self.part = part
        self.reason = reason
    }

    /// The reason with the bad part quoted in front, unless the part is the whole URL (the
    /// URL is quoted by whoever shows it): what a driver puts in its error message.
    public var detail: String { part == url ? reason : "\"\(part)\": \(reason)" }

    public var description: String { "invalid transport URL \"\(url)\": \(detail)" }
}
