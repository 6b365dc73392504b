import Foundation

/// Times on the wire (events and the server's API): ISO 8601 in UTC with milliseconds.
public enum JSONTime {
    public static func iso(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
    /// A radio's epoch seconds (0: never).
    public static func epoch(_ seconds: UInt32) -> String? { seconds == 0 ? nil : iso(Date(timeIntervalSince1970: TimeInterval(seconds))) }
}
