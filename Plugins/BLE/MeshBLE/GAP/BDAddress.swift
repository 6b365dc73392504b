/// A Bluetooth device address and its type. Written most significant byte first
/// ("F0:00:00:00:00:01"), sent over HCI least significant byte first.
public struct BDAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address type as HCI and SMP encode it.
    public enum Kind: UInt8, Sendable {
        case `public` = 0
        case random = 1
    }

    /// Most significant byte first, as written.
    public let bytes: [UInt8]
    public let kind: Kind

    /// Parses "AA:BB:CC:DD:EE:FF" (colons or dashes, any case).
    public init(_ text: String, kind: Kind) throws(BDAddressError) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { throw BDAddressError(text: text) }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { throw BDAddressError(text: text) }
            bytes.append(byte)
        }
        self.bytes = bytes
        self.kind = kind
    }

    /// From the 6 bytes of an HCI or SMP field (least significant byte first).
    public init(littleEndian field: some Collection<UInt8>, kind: Kind) {
        precondition(field.count == 6, "a BD_ADDR field is 6 bytes")
        bytes = field.reversed()
        self.kind = kind
    }

    /// The 6 bytes as HCI and SMP carry them (least significant byte first).
    public var littleEndian: [UInt8] { bytes.reversed() }

    /// A random static address: random type with the two top bits set (Core Vol 6 Part B 1.3.2.1).
    public var isRandomStatic: Bool { kind == .random && bytes[0] & 0xC0 == 0xC0 }

    public var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}

/// Text that is not a Bluetooth address.
public struct BDAddressError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public init(text: String) { self.text = text }
    public var description: String { "'\(text)' is not a Bluetooth address: write six hex bytes, e.g. F0:00:00:00:00:01" }
}
