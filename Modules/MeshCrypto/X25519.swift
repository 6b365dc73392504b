/// X25519 (RFC 7748 §5): Diffie–Hellman on the Montgomery form of Curve25519.
/// Variable time: for simulation and verification, not for secret-handling production code.
public enum X25519 {
    public static let keySize = 32
    /// u = 9, the Montgomery base point.
    public static let basePoint: [UInt8] = [9] + [UInt8](repeating: 0, count: 31)

    /// X25519(scalar, u): the u-coordinate of scalar · (u, …). The scalar is clamped and bit 255
    /// of `u` ignored, as RFC 7748 specifies. Throws when either is not 32 bytes.
    public static func scalarMultiply(scalar: [UInt8], u: [UInt8]) throws(MeshCryptoError) -> [UInt8] {
        guard scalar.count == keySize else { throw .invalidLength(what: "X25519 scalar", expected: keySize, actual: scalar.count) }
        guard u.count == keySize else { throw .invalidLength(what: "X25519 u-coordinate", expected: keySize, actual: u.count) }
        return ladder(scalar: scalar, u: Field25519(bytes: u)).bytes
    }

    /// Clears the three low bits (a multiple of the cofactor 8) and bit 255, sets bit 254.
    static func clamp(_ scalar: [UInt8]) -> [UInt8] {
        var k = scalar
        k[0] &= 248
        k[31] &= 127
        k[31] |= 64
        return k
    }

    /// The Montgomery ladder of RFC 7748 §5 over bits 254…0 of the clamped scalar, in projective (X : Z).
    static func ladder(scalar: [UInt8], u: Field25519) -> Field25519 {
        let k = clamp(scalar)
        // (A − 2) / 4 for A = 486662.
        let a24 = Field25519(121_665)
        var x2 = Field25519.one, z2 = Field25519.zero
        var x3 = u, z3 = Field25519.one
        var swapped = false
        for bit in (0...254).reversed() {
            let kt = (k[bit / 8] >> UInt8(bit % 8)) & 1 == 1
            // Swap only when this bit differs from the last: the pair stays (n·P, (n + 1)·P).
            if swapped != kt {
                swap(&x2, &x3)
                swap(&z2, &z3)
            }
            swapped = kt
            let a = x2 + z2, aa = a.squared()
            let b = x2 - z2, bb = b.squared()
            let e = aa - bb
            let c = x3 + z3, d = x3 - z3
            let da = d * a, cb = c * b
            x3 = (da + cb).squared()
            z3 = u * (da - cb).squared()
            x2 = aa * bb
            z2 = e * (aa + a24 * e)
        }
        if swapped {
            swap(&x2, &x3)
            swap(&z2, &z3)
        }
        return x2 * z2.inverse()
    }
}
