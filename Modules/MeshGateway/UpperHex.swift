/// Bytes as upper-case hex digits, as every gateway message spells keys, raw packets and
/// hashes: written directly rather than through `Hex.encode(...).uppercased()`, which makes
/// the text twice and runs Unicode case mapping over it, for every heard packet.
enum UpperHex {
    private static let digits = Array("0123456789ABCDEF".utf8)

    static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
