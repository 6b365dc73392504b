import Foundation

/// One check's outcome.
public struct ConformanceCheck: Codable, Sendable {
    public enum Result: String, Codable, Sendable { case passed, failed, skipped }
    public var name: String
    public var result: Result
    public var seconds: Double
    public var detail: String

    public init(name: String, result: Result, seconds: Double, detail: String) {
        self.name = name
        self.result = result
        self.seconds = seconds
        self.detail = detail
    }
}

/// What `meshport conformance URL --json` prints.
public struct ConformanceReport: Codable, Sendable {
    public var driver: String
    public var url: String
    public var passed: Int
    public var failed: Int
    public var skipped: Int
    public var checks: [ConformanceCheck]

    public var ok: Bool { failed == 0 }

    public func json() throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return String(decoding: try enc.encode(self), as: UTF8.self)
    }

    /// An aligned table (check, result, time) for a terminal.
    public func table() -> String {
        let width = max(5, checks.map(\.name.count).max() ?? 5)
        var lines = ["\("check".padded(width))  result   time     detail"]
        for c in checks {
            lines.append("\(c.name.padded(width))  \(c.result.rawValue.padded(7))  \(String(format: "%6.3f", c.seconds)) s  \(c.detail)")
        }
        lines.append("\(driver) \(url): \(passed) passed, \(failed) failed, \(skipped) skipped")
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padded(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
