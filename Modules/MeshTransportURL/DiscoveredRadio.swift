/// A radio a driver found: the URL to open it with, a short label, and what else the
/// driver knows (device node, USB ids, signal strength). Drivers make it and the host shows
/// it, so it lives beside the URL both sides share.
public struct DiscoveredRadio: Sendable, Hashable, Codable {
    public var url: String
    public var label: String
    public var details: String

    public init(url: String, label: String, details: String = "") {
        self.url = url
        self.label = label
        self.details = details
    }
}
