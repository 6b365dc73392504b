/// The 4-byte expected-ACK code from SENT and SEND_CONFIRMED (raw bytes, compared as a
/// little-endian u32). Also the request tag of remote requests.
public struct AckCode: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt32

    public init(_ value: UInt32) { self.value = value }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 else { return nil }
        value = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    public var bytes: [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    /// The code a recipient acknowledges a DM with (Docs/protocol.md §7.4): the first 4 bytes of
    /// SHA-256 over timestamp ‖ (attempt & 3 | txt_type << 2) ‖ text ‖ sender public key.
    public static func expected(timestamp: UInt32, attempt: UInt8, textType: TextType = .plain, text: [UInt8], sender: PublicKey) -> AckCode {
        var sha = SHA256()
        var w = ByteWriter(code: 0)
        w.u32(timestamp)
        w.u8((attempt & 3) | (textType.rawValue << 2))
        sha.update(w.bytes.dropFirst())
        sha.update(text)
        sha.update(sender.bytes)
        return AckCode(bytes: Array(sha.finalize().prefix(4)))!
    }

    static func read(_ r: inout ByteReader, _ field: String) throws -> AckCode {
        AckCode(try r.u32(field))
    }
}
