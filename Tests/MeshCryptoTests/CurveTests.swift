import Testing
@testable import MeshCrypto

/// The building blocks under Ed25519: field, scalars and points.
@Suite struct CurveTests {
    /// p − 1 as canonical bytes.
    let pMinusOne = [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]

    @Test func fieldEncodingIsCanonical() {
        // p encodes as 0, p + 1 as 1; 2^255 − 1 (= p + 18) as 18.
        #expect(Field25519(bytes: [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]).isZero)
        #expect(Field25519(bytes: [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]) == .one)
        #expect(Field25519(bytes: [UInt8](repeating: 0xFF, count: 32)).bytes == [18] + [UInt8](repeating: 0, count: 31))
        #expect(Field25519(bytes: pMinusOne).bytes == pMinusOne)
        #expect((-Field25519.one).bytes == pMinusOne)
    }

    @Test func fieldArithmetic() {
        let minusOne = Field25519(bytes: pMinusOne)
        #expect(minusOne * minusOne == .one)
        #expect(minusOne.squared() == .one)
        #expect(minusOne + .one == .zero)
        #expect(Field25519.zero - .one == minusOne)
        #expect(EdwardsPoint.sqrtMinusOne.squared() == minusOne)
        var rng = SplitMix(seed: 0xF1E1D)
        for _ in 0..<20 {
            let a = Field25519(bytes: rng.bytes(32)), b = Field25519(bytes: rng.bytes(32))
            #expect(a * a.inverse() == .one)
            #expect(a.squared() == a * a)
            #expect((a + b) * (a - b) == a.squared() - b.squared())
            #expect(a.pow2523() == a.power(littleEndian: [0xFD] + [UInt8](repeating: 0xFF, count: 30) + [0x0F]))
        }
        #expect(Field25519.zero.inverse() == .zero)
    }

    @Test func curveConstants() {
        // d = −121665 / 121666, little-endian.
        #expect(hex(EdwardsPoint.d.bytes) == "a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352")
        #expect(hex(EdwardsPoint.base.encoded) == "58" + String(repeating: "66", count: 31))
        #expect(EdwardsPoint.base.isSame(as: EdwardsPoint.baseMultiple([1] + [UInt8](repeating: 0, count: 31))))
        // L·B is the identity; (L + 1)·B is B.
        let order = Scalar25519.order.flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
        #expect(EdwardsPoint.baseMultiple(order).isSame(as: .identity))
        #expect(EdwardsPoint.base.multiplied(by: order).isSame(as: .identity))
        #expect(hex(EdwardsPoint.identity.encoded) == "01" + String(repeating: "00", count: 31))
    }

    @Test func pointArithmeticAgrees() {
        var rng = SplitMix(seed: 0xB0B)
        for _ in 0..<5 {
            let a = rng.bytes(32), b = rng.bytes(32)
            let p = EdwardsPoint.baseMultiple(a)
            // Doubling matches adding a point to itself, and decoding inverts encoding.
            #expect(p.doubled().isSame(as: p + p))
            let decoded = EdwardsPoint(decoding: p.encoded)
            #expect(decoded.map { $0.isSame(as: p) } == true)
            // a·(b·B) = b·(a·B), and a·P + b·B from one pass equals the two products summed.
            #expect(p.multiplied(by: b).isSame(as: EdwardsPoint.baseMultiple(b).multiplied(by: a)))
            #expect(EdwardsPoint.doubleMultiple(b, p, a).isSame(as: p.multiplied(by: b) + EdwardsPoint.baseMultiple(a)))
            #expect((p + p.negated).isSame(as: .identity))
        }
    }

    /// The comb table's sum equals the windowed product for every window and digit on its own,
    /// for random scalars, and at the ends of the range (0 and 2^256 − 1).
    @Test func baseMultipleMatchesTheWindowedProduct() {
        var scalars: [[UInt8]] = [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32)]
        for i in 0..<64 {
            for digit in [1, 9, 15] as [UInt8] {
                var k = [UInt8](repeating: 0, count: 32)
                k[i / 2] = digit << (4 * UInt8(i % 2))
                scalars.append(k)
            }
        }
        var rng = SplitMix(seed: 0xC0B)
        scalars += (0..<20).map { _ in rng.bytes(32) }
        for k in scalars {
            #expect(EdwardsPoint.baseMultiple(k).isSame(as: EdwardsPoint.base.multiplied(by: k)), "scalar \(hex(k))")
        }
    }

    @Test func scalarReduction() {
        let order = Scalar25519.order.flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
        #expect(Scalar25519(reducing: order) == .zero)
        var orderPlusOne = order
        orderPlusOne[0] += 1
        #expect(Scalar25519(reducing: orderPlusOne).bytes == [1] + [UInt8](repeating: 0, count: 31))
        // 2^512 − 1 mod L, computed independently.
        #expect(hex(Scalar25519(reducing: [UInt8](repeating: 0xFF, count: 64)).bytes)
                == "000f9c44e31106a447938568a71b0ed065bef517d273ecce3d9a307c1b419903")
        // (L − 1)² + (L − 1) = L·(L − 1) ≡ 0.
        var orderMinusOne = order
        orderMinusOne[0] -= 1
        let m = Scalar25519(reducing: orderMinusOne)
        #expect(Scalar25519.multiplyAdd(m, m, m) == .zero)
        #expect(Scalar25519.multiplyAdd(m, m, .zero).bytes == [1] + [UInt8](repeating: 0, count: 31))
    }
}
