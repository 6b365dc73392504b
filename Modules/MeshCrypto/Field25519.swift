/// An element of GF(p), p = 2^255 − 19, as five little-endian limbs of 51 bits.
///
/// Every operation returns limbs just above 51 bits at most, so products of two elements
/// fit comfortably in 128 bits; `bytes` gives the canonical 32-byte encoding.
/// Variable time: Meshport uses this for simulation and verification, not to guard secrets.
struct Field25519: Sendable, Equatable, CustomStringConvertible {
    var l0, l1, l2, l3, l4: UInt64

    static let mask: UInt64 = (1 << 51) - 1
    static let zero = Field25519(0, 0, 0, 0, 0)
    static let one = Field25519(1, 0, 0, 0, 0)

    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4) = (l0, l1, l2, l3, l4)
    }

    /// A small constant (below 2^51).
    init(_ small: UInt64) {
        precondition(small <= Self.mask)
        self.init(small, 0, 0, 0, 0)
    }

    /// Decodes 32 little-endian bytes, ignoring the top bit (RFC 7748 and RFC 8032 both
    /// leave bit 255 to the caller). Values from p to 2^255 − 1 are accepted unreduced.
    init(bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 32)
        let base = bytes.startIndex
        func word(_ i: Int) -> UInt64 {
            var w: UInt64 = 0
            for j in (0..<8).reversed() { w = w << 8 | UInt64(bytes[base + i * 8 + j]) }
            return w
        }
        let w0 = word(0), w1 = word(1), w2 = word(2), w3 = word(3)
        self.init(w0 & Self.mask, (w0 >> 51 | w1 << 13) & Self.mask, (w1 >> 38 | w2 << 26) & Self.mask,
                  (w2 >> 25 | w3 << 39) & Self.mask, (w3 >> 12) & Self.mask)
    }

    init(bytes: [UInt8]) { self.init(bytes: bytes[...]) }

    /// The canonical encoding: the value reduced into [0, p), 32 bytes little-endian.
    var bytes: [UInt8] {
        var f = carried().carried()
        // Now f < 2^255 + 2^10 < 2p. The carry out of f + 19 past bit 255 is 1 exactly when f ≥ p.
        var q = (f.l0 + 19) >> 51
        q = (f.l1 + q) >> 51
        q = (f.l2 + q) >> 51
        q = (f.l3 + q) >> 51
        q = (f.l4 + q) >> 51
        // Subtract q·p: add 19q, then drop bit 255 while carrying.
        f.l0 += 19 * q
        f.l1 += f.l0 >> 51; f.l0 &= Self.mask
        f.l2 += f.l1 >> 51; f.l1 &= Self.mask
        f.l3 += f.l2 >> 51; f.l2 &= Self.mask
        f.l4 += f.l3 >> 51; f.l3 &= Self.mask
        f.l4 &= Self.mask
        let words = [f.l0 | f.l1 << 51, f.l1 >> 13 | f.l2 << 38, f.l2 >> 26 | f.l3 << 25, f.l3 >> 39 | f.l4 << 12]
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for w in words {
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: w >> UInt64(shift))) }
        }
        return out
    }

    var isZero: Bool { bytes.allSatisfy { $0 == 0 } }
    /// RFC 8032's sign of x: the least significant bit of the canonical value.
    var isNegative: Bool { bytes[0] & 1 == 1 }

    static func == (a: Field25519, b: Field25519) -> Bool { a.bytes == b.bytes }

    var description: String { bytes.reversed().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    /// Moves each limb's bits above 51 into the next limb; the carry out of the top limb
    /// re-enters at the bottom multiplied by 19, since 2^255 ≡ 19 (mod p).
    @inline(__always) func carried() -> Field25519 {
        var r = self
        r.l1 += r.l0 >> 51; r.l0 &= Self.mask
        r.l2 += r.l1 >> 51; r.l1 &= Self.mask
        r.l3 += r.l2 >> 51; r.l2 &= Self.mask
        r.l4 += r.l3 >> 51; r.l3 &= Self.mask
        r.l0 += 19 * (r.l4 >> 51); r.l4 &= Self.mask
        return r
    }

    static func + (a: Field25519, b: Field25519) -> Field25519 {
        Field25519(a.l0 + b.l0, a.l1 + b.l1, a.l2 + b.l2, a.l3 + b.l3, a.l4 + b.l4).carried()
    }

    /// Adds 4p before subtracting so no limb goes below zero (inputs' limbs stay under 2^53 − 76).
    static func - (a: Field25519, b: Field25519) -> Field25519 {
        Field25519(a.l0 + 0x1F_FFFF_FFFF_FFB4 - b.l0, a.l1 + 0x1F_FFFF_FFFF_FFFC - b.l1,
                   a.l2 + 0x1F_FFFF_FFFF_FFFC - b.l2, a.l3 + 0x1F_FFFF_FFFF_FFFC - b.l3,
                   a.l4 + 0x1F_FFFF_FFFF_FFFC - b.l4).carried()
    }

    static prefix func - (a: Field25519) -> Field25519 { zero - a }

    static func * (a: Field25519, b: Field25519) -> Field25519 {
        // Limb products that land at 2^255 or above wrap around times 19.
        let b1 = 19 * b.l1, b2 = 19 * b.l2, b3 = 19 * b.l3, b4 = 19 * b.l4
        var r0 = Wide(a.l0, b.l0), r1 = Wide(a.l0, b.l1), r2 = Wide(a.l0, b.l2), r3 = Wide(a.l0, b.l3), r4 = Wide(a.l0, b.l4)
        r0.add(a.l1, b4); r1.add(a.l1, b.l0); r2.add(a.l1, b.l1); r3.add(a.l1, b.l2); r4.add(a.l1, b.l3)
        r0.add(a.l2, b3); r1.add(a.l2, b4); r2.add(a.l2, b.l0); r3.add(a.l2, b.l1); r4.add(a.l2, b.l2)
        r0.add(a.l3, b2); r1.add(a.l3, b3); r2.add(a.l3, b4); r3.add(a.l3, b.l0); r4.add(a.l3, b.l1)
        r0.add(a.l4, b1); r1.add(a.l4, b2); r2.add(a.l4, b3); r3.add(a.l4, b4); r4.add(a.l4, b.l0)
        return reduce(r0, r1, r2, r3, r4)
    }

    func squared() -> Field25519 {
        let d0 = 2 * l0, d1 = 2 * l1, d2 = 2 * l2, d3 = 2 * l3
        let n3 = 19 * l3, n4 = 19 * l4
        var r0 = Wide(l0, l0), r1 = Wide(d0, l1), r2 = Wide(d0, l2), r3 = Wide(d0, l3), r4 = Wide(d0, l4)
        r0.add(d1, n4); r0.add(d2, n3)
        r1.add(l3, n3); r1.add(d2, n4)
        r2.add(l1, l1); r2.add(d3, n4)
        r3.add(d1, l2); r3.add(l4, n4)
        r4.add(d1, l3); r4.add(l2, l2)
        return Field25519.reduce(r0, r1, r2, r3, r4)
    }

    /// Squares `k` times in a row.
    func squared(times k: Int) -> Field25519 {
        var r = self
        for _ in 0..<k { r = r.squared() }
        return r
    }

    /// Carries five 128-bit column sums down to 51-bit limbs.
    @inline(__always) private static func reduce(_ r0: Wide, _ r1: Wide, _ r2: Wide, _ r3: Wide, _ r4: Wide) -> Field25519 {
        var r1 = r1, r2 = r2, r3 = r3, r4 = r4
        r1.add(r0.shifted51); r2.add(r1.shifted51); r3.add(r2.shifted51); r4.add(r3.shifted51)
        // The top column has no ×19 terms, so its carry stays below 2^54 and 19 times it fits.
        var f = Field25519(r0.low51 + 19 * r4.shifted51, r1.low51, r2.low51, r3.low51, r4.low51)
        f.l1 += f.l0 >> 51
        f.l0 &= mask
        return f
    }

    /// self^(2^250 − 1) and self^11: the shared start of the inversion and square-root chains.
    private func pow2250m1() -> (pow: Field25519, z11: Field25519) {
        let z2 = squared()
        let z9 = z2.squared(times: 2) * self
        let z11 = z9 * z2
        let z2_5 = z11.squared() * z9                     // 2^5 − 1
        let z2_10 = z2_5.squared(times: 5) * z2_5         // 2^10 − 1
        let z2_20 = z2_10.squared(times: 10) * z2_10      // 2^20 − 1
        let z2_40 = z2_20.squared(times: 20) * z2_20      // 2^40 − 1
        let z2_50 = z2_40.squared(times: 10) * z2_10      // 2^50 − 1
        let z2_100 = z2_50.squared(times: 50) * z2_50     // 2^100 − 1
        let z2_200 = z2_100.squared(times: 100) * z2_100  // 2^200 − 1
        let z2_250 = z2_200.squared(times: 50) * z2_50    // 2^250 − 1
        return (z2_250, z11)
    }

    /// self^(p − 2) = self^(2^255 − 21), the inverse by Fermat; zero maps to zero.
    func inverse() -> Field25519 {
        let (z2_250, z11) = pow2250m1()
        return z2_250.squared(times: 5) * z11
    }

    /// self^((p − 5) / 8) = self^(2^252 − 3), the exponent of the square-root step in point decoding.
    func pow2523() -> Field25519 {
        pow2250m1().pow.squared(times: 2) * self
    }

    /// self^e for a little-endian exponent; plain square-and-multiply, used only for constants.
    func power(littleEndian exponent: [UInt8]) -> Field25519 {
        var r = Field25519.one
        for byte in exponent.reversed() {
            for bit in (0..<8).reversed() {
                r = r.squared()
                if (byte >> bit) & 1 == 1 { r = r * self }
            }
        }
        return r
    }
}

/// An unsigned 128-bit accumulator; `UInt128` would need macOS 15, the package supports macOS 13.
struct Wide {
    var hi: UInt64
    var lo: UInt64

    @inline(__always) init(_ a: UInt64, _ b: UInt64) { (hi, lo) = a.multipliedFullWidth(by: b) }

    @inline(__always) mutating func add(_ a: UInt64, _ b: UInt64) {
        let p = a.multipliedFullWidth(by: b)
        let (sum, overflow) = lo.addingReportingOverflow(p.low)
        lo = sum
        hi &+= p.high &+ (overflow ? 1 : 0)
    }

    @inline(__always) mutating func add(_ a: UInt64) {
        let (sum, overflow) = lo.addingReportingOverflow(a)
        lo = sum
        hi &+= overflow ? 1 : 0
    }

    @inline(__always) var low51: UInt64 { lo & Field25519.mask }
    @inline(__always) var shifted51: UInt64 { hi << 13 | lo >> 51 }
}
