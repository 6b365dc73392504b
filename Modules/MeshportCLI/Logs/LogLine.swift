import Foundation
import Logging

/// One log event as `meshport serve` and `meshport ingest` write it on stderr, one line each
/// (Docs/server.md "Logs"): `text` for people, `json` for collectors.
struct LogLine {
    var time: Date
    var level: Logger.Level
    var label: String
    var message: String
    var metadata: Logger.Metadata = [:]

    /// `TIME LEVEL LABEL: MESSAGE key=value ...`; under journald (`journal`) the time is left to
    /// it and the level goes first as a syslog priority, `<5>LABEL: MESSAGE ...`, which it
    /// reads as the entry's priority.
    func text(journal: Bool) -> String {
        let pairs = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\(Self.quoted(Self.plain($0.value)))" }.joined()
        let head = journal ? "<\(level.syslogPriority)>" : "\(Self.timestamp(time)) \(level.rawValue) "
        return head + "\(label): " + Self.oneLine(message) + pairs
    }

    /// `{"time":...,"level":...,"label":...,"message":...}` and each metadata key beside them
    /// (one that takes one of those four names gets a `metadata_` prefix).
    var json: String {
        var fields = [("time", Self.string(Self.timestamp(time))), ("level", Self.string(level.rawValue)),
                      ("label", Self.string(label)), ("message", Self.string(message))]
        let reserved: Set = ["time", "level", "label", "message"]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            fields.append((reserved.contains(key) ? "metadata_" + key : key, Self.json(value)))
        }
        return "{" + fields.map { "\(Self.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// UTC with milliseconds: 2026-11-27T16:07:02.123Z.
    private static func timestamp(_ time: Date) -> String {
        time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func plain(_ value: Logger.MetadataValue) -> String {
        switch value {
        case let .string(text): text
        case let .stringConvertible(item): item.description
        case let .array(items): "[" + items.map(plain).joined(separator: ", ") + "]"
        case let .dictionary(entries): "[" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \(plain($0.value))" }.joined(separator: ", ") + "]"
        }
    }

    /// A value with a space, a quote or an `=` in quotes, so the pairs read back unambiguously.
    private static func quoted(_ text: String) -> String {
        guard text.isEmpty || text.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) else { return text }
        return string(text)
    }

    private static func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? text.split(whereSeparator: \.isNewline).joined(separator: "\\n") : text
    }

    private static func json(_ value: Logger.MetadataValue) -> String {
        switch value {
        case let .string(text): string(text)
        case let .stringConvertible(item): string(item.description)
        case let .array(items): "[" + items.map(json).joined(separator: ",") + "]"
        case let .dictionary(entries):
            "{" + entries.sorted { $0.key < $1.key }.map { "\(string($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal.
    private static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension Logger.Level {
    /// The syslog priority journald files an entry under (RFC 5424: 2 critical ... 7 debug).
    var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
