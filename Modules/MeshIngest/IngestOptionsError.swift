/// A bad `meshport ingest` option, as a sentence naming the option and what to give instead.
public enum IngestOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(option: String)
    case badValue(option: String, value: String, reason: String)
    case badChannel(spec: String, reason: String)

    public var description: String {
        switch self {
        case let .missing(option):
            "--\(option) is required."
        case let .badValue(option, value, reason):
            "--\(option) \(value) is not usable: \(reason)."
        case let .badChannel(spec, reason):
            "--channel \(spec) is not usable: \(reason)."
        }
    }
}
