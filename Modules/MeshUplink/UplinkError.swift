/// Why an uplink could not be set up; each a sentence that says what to change.
public enum UplinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option of the `--mqtt` URL that the uplink reads is missing or wrong.
    case badOption(url: String, option: String, reason: String)

    public var description: String {
        switch self {
        case let .badOption(url, option, reason): "uplink \(url): \(option): \(reason)"
        }
    }
}
