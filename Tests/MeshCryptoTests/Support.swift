/// Bytes from a hex string (whitespace ignored); test vectors only.
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex length in test vector")
    return stride(from: 0, to: digits.count, by: 2).map { i in
        guard let b = UInt8(String(digits[i...i + 1]), radix: 16) else { fatalError("bad hex in test vector: \(hex)") }
        return b
    }
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// The same bytes with bit `bit` (0 = lowest bit of byte 0) flipped.
func flipping(_ bytes: [UInt8], bit: Int) -> [UInt8] {
    var b = bytes
    b[bit / 8] ^= 1 << UInt8(bit % 8)
    return b
}
