import Foundation
import MeshCodec

/// Settings as text, the same way `get` shows them and `set` reads them.
enum SettingFormat {
    /// 869525 -> "869.525", 250000 -> "250", 62500 -> "62.5".
    static func milli(_ v: UInt32) -> String {
        let whole = v / 1000, frac = v % 1000
        guard frac != 0 else { return "\(whole)" }
        var digits = String(frac)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// Reads a decimal with at most 3 decimals as thousandths: "869.525" -> 869525.
    static func parseMilli(_ s: String) -> UInt32? {
        let t = s.trimmingCharacters(in: .whitespaces)
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = UInt32(parts[0]) else { return nil }
        var frac: UInt32 = 0
        if parts.count == 2 {
            let f = parts[1]
            guard (1...3).contains(f.count), f.allSatisfy(\.isASCII), let v = UInt32(f) else { return nil }
            frac = v * [1, 100, 10, 1][f.count]
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        return scaled.addingReportingOverflow(frac).overflow ? nil : scaled + frac
    }

    static func radio(_ p: RadioParams) -> String {
        "\(milli(p.frequencyKHz)),\(milli(p.bandwidthHz)),\(p.spreadingFactor),\(p.codingRate)"
    }

    static func degrees(_ e6: Int32) -> String { String(format: "%.6f", Double(e6) / 1_000_000) }
    static func coordinates(_ c: Coordinates) -> String { "\(degrees(c.latitudeE6)),\(degrees(c.longitudeE6))" }

    /// "52.3702" -> 52370200; at most 6 decimals (the wire's resolution).
    static func parseDegrees(_ s: String) -> Int32? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard let v = Double(t), v.isFinite, abs(v) <= 180 else { return nil }
        return Int32((v * 1_000_000).rounded())
    }

    static func onOff(_ b: Bool) -> String { b ? "on" : "off" }

    static func parseBool(_ s: String) -> Bool? {
        switch s.trimmingCharacters(in: .whitespaces).lowercased() {
        case "on", "1", "true", "yes": true
        case "off", "0", "false", "no": false
        default: nil
        }
    }

    static let telemetryModeNames = ["deny", "flags", "all"]

    static func telemetryMode(_ m: UInt8) -> String { m < 3 ? telemetryModeNames[Int(m)] : "\(m)" }

    static func parseTelemetryMode(_ s: String) -> UInt8? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if let i = telemetryModeNames.firstIndex(of: t) { return UInt8(i) }
        return UInt8(t).flatMap { $0 < 3 ? $0 : nil }
    }

    static func telemetryModes(_ m: TelemetryModes) -> String {
        "base \(telemetryMode(m.base)), location \(telemetryMode(m.location)), environment \(telemetryMode(m.environment))"
    }

    static func otherParams(_ p: OtherParams) -> String {
        "manual_add_contacts \(onOff(p.manualAddContacts & 1 == 1)), telemetry \(telemetryModes(p.telemetryModes ?? TelemetryModes(rawValue: 0))), "
            + "advert_loc_policy \(p.advertLocationPolicy ?? 0), multi_acks \(onOff((p.multiAcks ?? 0) != 0))"
    }

    static func hexByte(_ b: UInt8) -> String { "0x" + Hex.encode([b]) }

    static func parseByte(_ s: String) -> UInt8? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        return t.hasPrefix("0x") ? UInt8(t.dropFirst(2), radix: 16) : UInt8(t)
    }

    static func autoAdd(_ c: AutoAddConfig) -> String { "\(hexByte(c.bitmask)), max hops \(c.maxHops.map { "\($0)" } ?? "not reported")" }

    static func tuning(_ t: TuningParams) -> String { "\(milli(t.rxDelayBase)),\(milli(t.airtimeFactor))" }

    static func scope(_ s: FloodScope?) -> String { s.map { $0.name } ?? "none" }

    static func optional<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "not reported" }
}
