import Foundation

/// Wall-clock timing for the benchmark (monotonic clock).
enum Measure {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return (ContinuousClock.now - start).seconds
    }

    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start).seconds
    }

    /// The p-th percentile (0...100) of samples.
    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p / 100).rounded()))]
    }

    static func mean(_ samples: [Double]) -> Double { samples.reduce(0, +) / Double(max(1, samples.count)) }

    /// Progress for a person watching; the JSON result goes to stdout alone.
    static func log(_ text: String) { FileHandle.standardError.write(Data("store bench: \(text)\n".utf8)) }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
