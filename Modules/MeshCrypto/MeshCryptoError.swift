/// An input MeshCrypto cannot use.
public enum MeshCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `what` (a seed, a key, a scalar…) had `actual` bytes where exactly `expected` are needed.
    case invalidLength(what: String, expected: Int, actual: Int)
    /// A sealed payload whose 2-byte MAC does not match: another key, or damaged on the way.
    case macMismatch
    /// A sealed payload whose ciphertext is not whole 16-byte blocks (`length` bytes).
    case partialBlock(length: Int)
    /// The AES implementation refused the operation (`reason` from the library).
    case cipherFailed(reason: String)

    public var description: String {
        switch self {
        case let .invalidLength(what, expected, actual):
            return "\(what) must be \(expected) bytes, got \(actual)"
        case .macMismatch:
            return "MAC mismatch: not sealed with this key, or damaged"
        case let .partialBlock(length):
            return "ciphertext of \(length) bytes is not whole 16-byte blocks"
        case let .cipherFailed(reason):
            return "AES failed: \(reason)"
        }
    }
}

/// Lower-case hex, for descriptions.
func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
}
