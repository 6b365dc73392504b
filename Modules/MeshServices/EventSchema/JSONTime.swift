import Foundation

/// Times on the wire (events and the server's API): ISO 8601 in UTC with milliseconds.
public enum JSONTime {
    /// `yyyy-MM-ddTHH:mm:ss.SSSZ`, the text of Foundation's `ISO8601FormatStyle` with fractional
    /// seconds, written from the C library's `gmtime_r` for the years 1600 to 9999: the format
    /// style costs about 10 us a time, and a page of the region map has 15,000 (Docs/scale-out.md,
    /// "Sizing"). Before 1600 Foundation counts Julian days, so those go through the format style.
    public static func iso(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds >= -11_676_096_000, seconds < 253_402_300_800 else { return formatStyle(date) }
        let whole = seconds.rounded(.down)
        var time = time_t(whole)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return formatStyle(date) }
        // The fraction truncated to milliseconds, as the format style does.
        let millis = min(999, Int((seconds - whole) * 1000))
        var text = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int, at start: Int, digits: Int) {
            var value = value
            for index in stride(from: start + digits - 1, through: start, by: -1) {
                text[index] = UInt8(0x30 + value % 10)
                value /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, at: 0, digits: 4)
        put(Int(parts.tm_mon) + 1, at: 5, digits: 2)
        put(Int(parts.tm_mday), at: 8, digits: 2)
        put(Int(parts.tm_hour), at: 11, digits: 2)
        put(Int(parts.tm_min), at: 14, digits: 2)
        put(Int(parts.tm_sec), at: 17, digits: 2)
        put(millis, at: 20, digits: 3)
        (text[4], text[7], text[10], text[13], text[16], text[19], text[23]) = (0x2D, 0x2D, 0x54, 0x3A, 0x3A, 0x2E, 0x5A) // - - T : : . Z
        return String(decoding: text, as: UTF8.self)
    }

    private static func formatStyle(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }

    /// A radio's epoch seconds (0: never).
    public static func epoch(_ seconds: UInt32) -> String? { seconds == 0 ? nil : iso(Date(timeIntervalSince1970: TimeInterval(seconds))) }
}
