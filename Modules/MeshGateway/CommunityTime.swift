import Foundation

/// The three spellings of one instant in the community messages, all in UTC (Docs/gateway.md,
/// "Packet message"): `timestamp` as Python's `isoformat()` writes it (microseconds only when
/// not zero, `+00:00`), `time` as HH:MM:SS and `date` as DD/MM/YYYY.
struct CommunityTime: Sendable {
    let timestamp: String
    let time: String
    let date: String

    init(_ instant: Date) {
        let seconds = instant.timeIntervalSince1970
        var whole = Int64(seconds.rounded(.down))
        var micros = Int64(((seconds - Double(whole)) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - days * 86_400)
        let (year, month, day) = Self.civil(days: days)
        // Written as bytes: this runs for every heard packet, where String interpolation of
        // padded numbers was a visible share of the uplink's CPU.
        var text: [UInt8] = []
        text.reserveCapacity(32)
        Self.append(year, 4, to: &text, then: "-")
        Self.append(month, 2, to: &text, then: "-")
        Self.append(day, 2, to: &text, then: "T")
        let clockStart = text.count
        Self.append(secondOfDay / 3600, 2, to: &text, then: ":")
        Self.append(secondOfDay / 60 % 60, 2, to: &text, then: ":")
        Self.append(secondOfDay % 60, 2, to: &text, then: nil)
        time = String(decoding: text[clockStart...], as: UTF8.self)
        if micros != 0 {
            text.append(UInt8(ascii: "."))
            Self.append(Int(micros), 6, to: &text, then: nil)
        }
        text.append(contentsOf: "+00:00".utf8)
        timestamp = String(decoding: text, as: UTF8.self)
        var dayFirst: [UInt8] = []
        dayFirst.reserveCapacity(10)
        Self.append(day, 2, to: &dayFirst, then: "/")
        Self.append(month, 2, to: &dayFirst, then: "/")
        Self.append(year, 4, to: &dayFirst, then: nil)
        date = String(decoding: dayFirst, as: UTF8.self)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (the civil-from-days algorithm:
    /// 400-year eras of 146 097 days, years counted from March so leap days come last).
    static func civil(days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// `value` in decimal, zero-padded to `width` digits (more when it needs them), then `separator`.
    private static func append(_ value: Int, _ width: Int, to text: inout [UInt8], then separator: Unicode.Scalar?) {
        if value < 0 {
            text.append(UInt8(ascii: "-"))
            append(-value, max(1, width - 1), to: &text, then: separator)
            return
        }
        var digits = 1
        var power = 10
        while digits < width || value >= power {
            digits += 1
            if power > Int.max / 10 { break }
            power *= 10
        }
        let start = text.count
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var rest = value
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        if let separator { text.append(UInt8(separator.value)) }
    }
}
