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
        time = "\(Self.pad(secondOfDay / 3600, 2)):\(Self.pad(secondOfDay / 60 % 60, 2)):\(Self.pad(secondOfDay % 60, 2))"
        date = "\(Self.pad(day, 2))/\(Self.pad(month, 2))/\(Self.pad(year, 4))"
        let fraction = micros == 0 ? "" : ".\(Self.pad(Int(micros), 6))"
        timestamp = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(time)\(fraction)+00:00"
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

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
