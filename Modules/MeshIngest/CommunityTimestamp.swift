import Foundation

/// The `timestamp` of a community message: ISO 8601 as Python's `isoformat()` writes it,
/// `2026-09-21T14:13:20.250000+00:00`, with or without a fraction, with `Z`, an offset, or
/// none at all (some bridges send local time without an offset; it is read as UTC).
enum CommunityTimestamp {
    static func parse(_ text: String) throws(IngestRejection) -> Date {
        guard let date = read(Array(text.utf8)) else {
            throw IngestRejection(.badValue, "field `timestamp` (\"\(text.prefix(40))\") is not an ISO 8601 time such as 2026-09-21T14:13:20+00:00")
        }
        return date
    }

    private static func read(_ b: [UInt8]) -> Date? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for byte in b[i..<i + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            i += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard i < b.count, b[i] == character.asciiValue else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, (0x30...0x39).contains(b[i]) {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        if i < b.count {
            if b[i] == UInt8(ascii: "Z") {
                i += 1
            } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let hours = digits(2) else { return nil }
                if i < b.count, b[i] == UInt8(ascii: ":") { i += 1 }   // +HH:MM or +HHMM
                guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (years counted from March, so the
    /// leap day comes last in its year).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
