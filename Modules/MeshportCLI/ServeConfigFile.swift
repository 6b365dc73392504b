import Foundation
import MeshportServer
import MeshTransport
import MeshUplink
import TOMLKit

/// `meshport serve --config FILE`: what serve takes on the command line, as TOML keys named
/// after the flags (`http = "0.0.0.0:8080"`, `radio = ["tcp://..."]`, `mqtt = [...]`). A flag
/// given on the command line wins over the file. An unknown key or a bad value is an error
/// naming the file, the line and the key (Docs/serve.example.toml).
struct ServeConfigFile: Equatable {
    var radio: [String]?
    var db: String?
    var http: String?
    var companion: [String]?
    var tokenFile: String?
    var webRoot: String?
    var mapTiles: String?
    var leaflet: String?
    var allowOrigin: [String]?
    var timeout: Double?
    var eventBuffer: Int?
    var maxBody: Int?
    var statsInterval: Double?
    var logLevel: String?
    var logFormat: LogFormat?
    var mqtt: [String]?
    var history: String?

    /// Every key the file may hold.
    static let keys = ["radio", "db", "http", "companion", "token-file", "web-root", "map-tiles", "leaflet", "allow-origin",
                       "timeout", "event-buffer", "max-body", "stats-interval", "log-level", "log-format", "mqtt", "history"]

    static func load(_ path: String) throws(ServeConfigError) -> ServeConfigFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ServeConfigError(path: path, reason: "cannot read it: \(error.localizedDescription)")
        }
        return try parse(text, path: path)
    }

    static func parse(_ text: String, path: String) throws(ServeConfigError) -> ServeConfigFile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ServeConfigError(path: path, line: error.source.begin.line, reason: "not valid TOML: \(error.description)")
        } catch {
            throw ServeConfigError(path: path, reason: "not valid TOML: \(error)")
        }
        let reader = Reader(table: table, text: text, path: path)
        for key in table.keys where !keys.contains(key) {
            throw reader.error(key, "unknown key; the keys are \(keys.joined(separator: ", "))")
        }
        var file = ServeConfigFile()
        file.radio = try reader.strings("radio", ServeRules.radioURL)
        file.db = try reader.string("db")
        file.http = try reader.string("http", ServeRules.address)
        file.companion = try reader.strings("companion", ServeRules.address)
        file.tokenFile = try reader.string("token-file")
        file.webRoot = try reader.string("web-root")
        file.mapTiles = try reader.string("map-tiles")
        file.leaflet = try reader.string("leaflet")
        file.allowOrigin = try reader.strings("allow-origin")
        file.timeout = try reader.number("timeout", ServeRules.timeout)
        file.eventBuffer = try reader.integer("event-buffer", ServeRules.eventBuffer)
        file.maxBody = try reader.integer("max-body", ServeRules.maxBody)
        file.statsInterval = try reader.number("stats-interval", ServeRules.statsInterval)
        file.logLevel = try reader.string("log-level", ServeRules.logLevel)
        file.logFormat = try reader.string("log-format", ServeRules.logFormat).flatMap(LogFormat.init(rawValue:))
        file.mqtt = try reader.strings("mqtt", ServeRules.brokerURL)
        file.history = try reader.string("history")
        return file
    }

    /// Reads typed values from the table; each error names the key's line in the text.
    private struct Reader {
        let table: TOMLTable
        let text: String
        let path: String

        func string(_ key: String, _ rule: (String) -> String? = { _ in nil }) throws(ServeConfigError) -> String? {
            guard let value = table[key] else { return nil }
            guard let string = value.string else { throw error(key, "must be a string, not \(named(value.type))") }
            if let why = rule(string) { throw error(key, why) }
            return string
        }

        /// A list of strings; one string stands for a list of one.
        func strings(_ key: String, _ rule: (String) -> String? = { _ in nil }) throws(ServeConfigError) -> [String]? {
            guard let value = table[key] else { return nil }
            var out: [String] = []
            if let string = value.string {
                out = [string]
            } else if let array = value.array {
                for item in array {
                    guard let string = item.string else { throw error(key, "must be a list of strings; one item is \(named(item.type))") }
                    out.append(string)
                }
            } else {
                throw error(key, "must be a list of strings, not \(named(value.type))")
            }
            if let why = out.lazy.compactMap(rule).first { throw error(key, why) }
            return out
        }

        func number(_ key: String, _ rule: (Double) -> String?) throws(ServeConfigError) -> Double? {
            guard let value = table[key] else { return nil }
            guard let number = value.double ?? value.int.map(Double.init) else { throw error(key, "must be a number, not \(named(value.type))") }
            if let why = rule(number) { throw error(key, why) }
            return number
        }

        func integer(_ key: String, _ rule: (Int) -> String?) throws(ServeConfigError) -> Int? {
            guard let value = table[key] else { return nil }
            guard let number = value.int else { throw error(key, "must be a whole number, not \(named(value.type))") }
            if let why = rule(number) { throw error(key, why) }
            return number
        }

        /// "a string", "an integer"
        private func named(_ type: TOMLType) -> String {
            let name = "\(type)"
            return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
        }

        /// The error at the line that sets `key` (TOMLKit keeps no positions, so the text is searched).
        func error(_ key: String, _ reason: String) -> ServeConfigError {
            let pattern = "^\\s*(\(NSRegularExpression.escapedPattern(for: key))|\"\(NSRegularExpression.escapedPattern(for: key))\")\\s*=|^\\s*\\[+\\s*\(NSRegularExpression.escapedPattern(for: key))\\s*\\]"
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = lines.firstIndex { $0.range(of: pattern, options: .regularExpression) != nil }.map { $0 + 1 }
            return ServeConfigError(path: path, line: line, key: key, reason: reason)
        }
    }
}

/// A config file serve cannot use: where and why.
struct ServeConfigError: Error, Equatable, CustomStringConvertible {
    var path: String
    var line: Int?
    var key: String?
    var reason: String

    var description: String {
        let place = path + (line.map { ", line \($0)" } ?? "")
        return key.map { "\(place): \($0): \(reason)" } ?? "\(place): \(reason)"
    }
}

/// Serve's limits on its numbers and levels, for the flags and the config file alike: nil
/// when a value is fine, else why not.
enum ServeRules {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    static func timeout(_ seconds: Double) -> String? { seconds > 0 && seconds <= 600 ? nil : "must be between 0 and 600 seconds, not \(seconds)" }
    static func eventBuffer(_ n: Int) -> String? { n >= 1 ? nil : "must be 1 or more" }
    static func maxBody(_ bytes: Int) -> String? { bytes >= 256 ? nil : "must be at least 256 bytes" }
    static func statsInterval(_ seconds: Double) -> String? { seconds >= 0 ? nil : "must be 0 or more" }
    static func logLevel(_ level: String) -> String? {
        logLevels.contains(level) ? nil : "must be one of trace, debug, info, notice, warning, error"
    }
    static func logFormat(_ format: String) -> String? {
        LogFormat(rawValue: format) == nil ? "must be text or json" : nil
    }

    /// HOST:PORT to listen on.
    static func address(_ text: String) -> String? { problem { _ = try ListenAddress(parsing: text) } }

    /// A radio URL as text (its driver checks the rest when serve resolves it).
    static func radioURL(_ text: String) -> String? { problem { _ = try TransportURL.parsed(text) } }

    /// An uplink's broker URL.
    static func brokerURL(_ text: String) -> String? { problem { _ = try UplinkTarget(parsing: text) } }

    /// What a parser said of the value, nil when it took it.
    private static func problem(_ parse: () throws -> Void) -> String? {
        do {
            try parse()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
