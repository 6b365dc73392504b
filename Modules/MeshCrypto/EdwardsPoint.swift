/// A point on the twisted Edwards curve −x² + y² = 1 + d·x²·y² over GF(2^255 − 19), in extended
/// coordinates (X : Y : Z : T) with x = X/Z, y = Y/Z and x·y = T/Z (Hisil–Wong–Carter–Dawson 2008).
/// Variable time throughout: for simulation and verification, not for secret-handling code.
struct EdwardsPoint: Sendable {
    var x, y, z, t: Field25519

    /// d = −121665 / 121666.
    static let d: Field25519 = -Field25519(121_665) * Field25519(121_666).inverse()
    static let d2: Field25519 = d + d
    /// √−1 = 2^((p − 1) / 4): 2 is not a square mod p, so this squares to −1.
    static let sqrtMinusOne: Field25519 = Field25519(2).power(littleEndian: [0xFB] + [UInt8](repeating: 0xFF, count: 30) + [0x1F])
    /// The base point B: y = 4/5 and x even, encoded 0x58 0x66 0x66 …
    static let base: EdwardsPoint = EdwardsPoint(decoding: [0x58] + [UInt8](repeating: 0x66, count: 31))!
    /// 0·B … 15·B, for the base-point windows of verification.
    static let baseTable: [Cached] = base.windowTable()
    /// j·16^i·B for every 4-bit window i (0 ..< 64) and digit j (0 ..< 16), at 16·i + j: a key
    /// derivation or signature then costs 64 additions and no doublings (about a quarter of
    /// the windowed product). 164 KB, built on first use for about four products' work.
    static let baseCombTable: [Cached] = {
        var table: [Cached] = []
        table.reserveCapacity(64 * 16)
        var power = base
        for _ in 0..<64 {
            table += power.windowTable()
            power = power.doubled().doubled().doubled().doubled()
        }
        return table
    }()

    static let identity = EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero)

    init(x: Field25519, y: Field25519, z: Field25519, t: Field25519) {
        (self.x, self.y, self.z, self.t) = (x, y, z, t)
    }

    /// Decodes 32 bytes (RFC 8032 §5.1.3): y with the sign of x in bit 255. Fails when y is not
    /// below p, when no x satisfies the curve equation, or when x = 0 comes with the sign bit set.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let negative = bytes[31] >> 7 == 1
        let y = Field25519(bytes: bytes)
        var unsigned = bytes
        unsigned[31] &= 0x7F
        guard y.bytes == unsigned else { return nil }
        // x² = u / v with u = y² − 1 and v = d·y² + 1; candidate x = u·v³·(u·v⁷)^((p − 5) / 8).
        let yy = y.squared()
        let u = yy - .one
        let v = Self.d * yy + .one
        let v3 = v.squared() * v
        var x = u * v3 * (u * v3.squared() * v).pow2523()
        let vxx = v * x.squared()
        if vxx == u {
            // x is a root.
        } else if vxx == -u {
            x = x * Self.sqrtMinusOne
        } else {
            return nil
        }
        if x.isZero && negative { return nil }
        if x.isNegative != negative { x = -x }
        self.init(x: x, y: y, z: .one, t: x * y)
    }

    /// 32 bytes: y, with the sign of x in bit 255.
    var encoded: [UInt8] {
        let zInverse = z.inverse()
        var out = (y * zInverse).bytes
        if (x * zInverse).isNegative { out[31] |= 0x80 }
        return out
    }

    var negated: EdwardsPoint { EdwardsPoint(x: -x, y: y, z: z, t: -t) }

    /// Whether both represent the same affine point (cross-multiplied, so no inversion).
    func isSame(as other: EdwardsPoint) -> Bool {
        x * other.z == other.x * z && y * other.z == other.y * z
    }

    /// A point prepared for addition: (Y + X, Y − X, 2Z, 2d·T).
    struct Cached: Sendable {
        var yPlusX, yMinusX, z2, t2d: Field25519
    }

    var cached: Cached { Cached(yPlusX: y + x, yMinusX: y - x, z2: z + z, t2d: t * Self.d2) }

    /// Unified addition for a = −1 ("add-2008-hwcd-3"): 8 multiplications, valid for any inputs.
    static func + (p: EdwardsPoint, q: Cached) -> EdwardsPoint {
        let a = (p.y - p.x) * q.yMinusX
        let b = (p.y + p.x) * q.yPlusX
        let c = p.t * q.t2d
        let d = p.z * q.z2
        let e = b - a, f = d - c, g = d + c, h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    static func + (p: EdwardsPoint, q: EdwardsPoint) -> EdwardsPoint { p + q.cached }

    /// Doubling for a = −1 ("dbl-2008-hwcd"): 4 squarings and 4 multiplications.
    func doubled() -> EdwardsPoint {
        let a = x.squared(), b = y.squared()
        let c = z.squared() + z.squared()
        let e = (x + y).squared() - a - b
        let g = b - a            // −A + B
        let f = g - c
        let h = -(a + b)         // −A − B
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// 0·P … 15·P for 4-bit windows.
    func windowTable() -> [Cached] {
        var table = [Self.identity.cached, cached]
        var multiple = self
        for _ in 2..<16 {
            multiple = multiple + self
            table.append(multiple.cached)
        }
        return table
    }

    /// 4-bit window `i` (0 = least significant) of a 32-byte little-endian scalar.
    @inline(__always) private static func window(_ scalar: [UInt8], _ i: Int) -> Int {
        Int((scalar[i / 2] >> UInt8(4 * (i % 2))) & 0x0F)
    }

    /// scalar · self for a 32-byte little-endian scalar (any 256-bit value), fixed 4-bit windows.
    func multiplied(by scalar: [UInt8]) -> EdwardsPoint {
        Self.multiply(scalar, windowTable())
    }

    /// scalar · B for a 32-byte little-endian scalar (any 256-bit value): one table entry per
    /// window, summed.
    static func baseMultiple(_ scalar: [UInt8]) -> EdwardsPoint {
        precondition(scalar.count == 32)
        var r = identity
        for i in 0..<64 {
            let w = window(scalar, i)
            if w != 0 { r = r + baseCombTable[16 * i + w] }
        }
        return r
    }

    private static func multiply(_ scalar: [UInt8], _ table: [Cached]) -> EdwardsPoint {
        precondition(scalar.count == 32)
        var r = identity
        for i in (0..<64).reversed() {
            r = r.doubled().doubled().doubled().doubled()
            let w = window(scalar, i)
            if w != 0 { r = r + table[w] }
        }
        return r
    }

    /// a · P + b · B in one pass of shared doublings (Straus), for verification.
    static func doubleMultiple(_ a: [UInt8], _ p: EdwardsPoint, _ b: [UInt8]) -> EdwardsPoint {
        precondition(a.count == 32 && b.count == 32)
        let table = p.windowTable()
        var r = identity
        for i in (0..<64).reversed() {
            r = r.doubled().doubled().doubled().doubled()
            let wa = window(a, i), wb = window(b, i)
            if wa != 0 { r = r + table[wa] }
            if wb != 0 { r = r + baseTable[wb] }
        }
        return r
    }
}
