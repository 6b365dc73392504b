/// An input MeshCrypto cannot use.
public enum MeshCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `what` (a seed, a key, a scalar…) had `actual` bytes where exactly `expected` are needed.
    case invalidLength(what: String, expected: Int, actual: Int)

    public var description: String {
        switch self {
        case let .invalidLength(what, expected, actual):
            return "\(what) must be \(expected) bytes, got \(actual)"
        }
    }
}

/// Lower-case hex, for descriptions.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
}
