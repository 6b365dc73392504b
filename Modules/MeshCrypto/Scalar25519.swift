/// An integer modulo the prime group order L = 2^252 + 27742317777372353535851937790883648493,
/// fully reduced, as four little-endian 64-bit limbs.
struct Scalar25519: Hashable, Sendable {
    private(set) var limbs: [UInt64]

    /// L, little-endian limbs.
    static let order: [UInt64] = [0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 0x1000_0000_0000_0000]
    /// floor(2^512 / L) for Barrett reduction (HAC 14.42 with base 2^64 and k = 4).
    private static let barrett: [UInt64] = [
        0xed9c_e5a3_0a2c_131b, 0x2106_215d_0863_29a7, 0xffff_ffff_ffff_ffeb, 0xffff_ffff_ffff_ffff, 0xf,
    ]

    static let zero = Scalar25519(reduced: [0, 0, 0, 0])

    private init(reduced limbs: [UInt64]) { self.limbs = limbs }

    /// Reduces up to 64 little-endian bytes (a SHA-512 digest, a 32-byte scalar) modulo L.
    init(reducing bytes: some Collection<UInt8>) {
        precondition(bytes.count <= 64)
        var wide = [UInt64](repeating: 0, count: 8)
        for (i, byte) in bytes.enumerated() { wide[i / 8] |= UInt64(byte) << UInt64(8 * (i % 8)) }
        self.init(reduced: Self.reduce(wide))
    }

    /// 32 bytes little-endian.
    var bytes: [UInt8] {
        limbs.flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
    }

    /// Whether 32 little-endian bytes encode a value below L (RFC 8032 rejects signatures whose S is not).
    static func isCanonical(_ bytes: some Collection<UInt8>) -> Bool {
        precondition(bytes.count == 32)
        var value = [UInt64](repeating: 0, count: 4)
        for (i, byte) in bytes.enumerated() { value[i / 8] |= UInt64(byte) << UInt64(8 * (i % 8)) }
        return compare(value, order) < 0
    }

    /// (a · b + c) mod L; below L² + L < 2^512, so one Barrett reduction suffices.
    static func multiplyAdd(_ a: Scalar25519, _ b: Scalar25519, _ c: Scalar25519) -> Scalar25519 {
        var wide = multiply(a.limbs, b.limbs)
        var carry: UInt64 = 0
        for i in 0..<wide.count {
            let addend = i < 4 ? c.limbs[i] : 0
            let (s1, o1) = wide[i].addingReportingOverflow(addend)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            wide[i] = s2
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        return Scalar25519(reduced: reduce(wide))
    }

    /// x mod L for x below 2^512 (eight limbs).
    private static func reduce(_ x: [UInt64]) -> [UInt64] {
        // q ≈ x / L from the top five limbs of x and floor(2^512 / L); the estimate is at most 2 short.
        let q1 = Array(x[3..<8])
        let q3 = Array(multiply(q1, barrett)[5..<10])
        // Work modulo 2^320 (five limbs): the true remainder is below 3L < 2^320.
        var r = subtract(Array(x[0..<5]), Array(multiply(q3, order)[0..<5]))
        let order5 = order + [0]
        while compare(r, order5) >= 0 { r = subtract(r, order5) }
        return Array(r[0..<4])
    }

    /// Schoolbook product of two little-endian limb arrays.
    private static func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var r = [UInt64](repeating: 0, count: a.count + b.count)
        for i in 0..<a.count {
            var carry: UInt64 = 0
            for j in 0..<b.count {
                // a·b + r + carry < 2^128, so the high word never overflows.
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (s1, o1) = low.addingReportingOverflow(r[i + j])
                let (s2, o2) = s1.addingReportingOverflow(carry)
                r[i + j] = s2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            r[i + b.count] = carry
        }
        return r
    }

    /// a − b modulo 2^(64·count), both the same length.
    private static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var r = a
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, o1) = a[i].subtractingReportingOverflow(b[i])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            r[i] = d2
            borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        return r
    }

    /// −1, 0 or 1 as a is below, equal to or above b (same length).
    private static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
        for i in (0..<a.count).reversed() where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        return 0
    }
}
