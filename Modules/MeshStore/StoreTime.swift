import Foundation

/// Times are stored as integer milliseconds since 1970: compact, exactly ordered, and
/// readable with plain SQL.
extension Date {
    var storeMillis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
    init(storeMillis: Int64) { self.init(timeIntervalSince1970: Double(storeMillis) / 1000) }
}

extension Duration {
    /// For reports in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
