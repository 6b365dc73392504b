import MeshTransport

/// A radio's URL as the API, /metrics and the logs show it: a BLE pairing PIN (`?pin=123456`)
/// is a secret and is replaced by `******`; the rest is shown as given.
struct ShownURL: Sendable {
    let raw: String
    let shown: String

    init(_ url: TransportURL) {
        raw = url.text
        guard let pin = url.parameter("pin"), !pin.isEmpty else {
            shown = url.text
            return
        }
        shown = url.text.replacingOccurrences(of: "pin=\(pin)", with: "pin=******")
    }

    /// `text` (an error's description, a log line) with the URL's secret hidden.
    func redact(_ text: String) -> String {
        raw == shown ? text : text.replacingOccurrences(of: raw, with: shown)
    }
}
