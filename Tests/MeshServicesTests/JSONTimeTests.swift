import Foundation
import MeshCodec
import MeshServices
import Testing

/// `JSONTime.iso` writes times by hand; it must write exactly what Foundation's ISO 8601
/// format style writes, which it replaced.
@Suite struct JSONTimeTests {
    static func formatted(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }

    @Test("the same text as ISO8601FormatStyle: edges of days, leap years, fractions, the years 1 to 9999")
    func sameAsFoundation() {
        let edges: [Double] = [0, -0.0005, 0.0005, 0.9995, 0.9999, -1, -86_400, -86_400.001, 951_782_400, 951_868_799.9999, 4_107_542_400,
                               -11_676_096_000, -11_676_096_000.5, -62_135_596_800, 253_402_300_799.999, 1_764_236_400.123]
        var generator = SplitMix64(seed: 27)
        let anyYear = (0..<20_000).map { _ in Double.random(in: -62_135_596_800 ..< 253_402_300_799, using: &generator) }
        let recent = (0..<20_000).map { _ in Double(Int.random(in: 1_600_000_000_000 ..< 1_900_000_000_000, using: &generator)) / 1000 }
        let mismatches = (edges + anyYear + recent).map { Date(timeIntervalSince1970: $0) }.filter { JSONTime.iso($0) != Self.formatted($0) }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { "\($0.timeIntervalSince1970): \(JSONTime.iso($0)) != \(Self.formatted($0))" })")
    }
}
