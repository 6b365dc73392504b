/// A Bluetooth UUID, kept as 128 bits (16- and 32-bit forms expand over the Base UUID).
public struct BLEUUID: Hashable, Sendable, CustomStringConvertible {
    /// Most significant byte first, as written.
    public let bytes: [UInt8]

    private static let base: [UInt8] = [0, 0, 0, 0, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB]

    /// From the 2, 4 or 16 bytes of an AD structure or ATT PDU (least significant byte first).
    public init(littleEndian field: [UInt8]) {
        precondition([2, 4, 16].contains(field.count), "a UUID field is 2, 4 or 16 bytes")
        if field.count == 16 {
            bytes = field.reversed()
        } else {
            var b = BLEUUID.base
            for (i, byte) in field.reversed().enumerated() { b[4 - field.count + i] = byte }
            bytes = b
        }
    }

    public init(_ short: UInt16) {
        self.init(littleEndian: [UInt8(short & 0xFF), UInt8(short >> 8)])
    }

    /// "6E400001-B5A3-F393-E0A9-E50E24DCCA9E".
    public init?(_ text: String) {
        let hex = text.filter { $0 != "-" }
        guard hex.count == 32 else { return nil }
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            guard let b = UInt8(hex[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        bytes = out
    }

    /// The 16-bit form when this is a Base UUID alias.
    public var short: UInt16? {
        guard bytes[0] == 0, bytes[1] == 0, Array(bytes[4...]) == Array(BLEUUID.base[4...]) else { return nil }
        return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// 2 bytes for a Base UUID alias, else 16; least significant byte first (ATT's form).
    public var attField: [UInt8] {
        if let s = short { return [UInt8(s & 0xFF), UInt8(s >> 8)] }
        return bytes.reversed()
    }

    public var description: String {
        let hex = bytes.map { b in (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true) }.joined()
        let c = Array(hex)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-")
    }

    /// The Nordic UART Service a MeshCore radio offers, and its two characteristics.
    public static let nus = BLEUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
    /// Written by the central: frames to the radio.
    public static let nusRX = BLEUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!
    /// Notified by the radio: frames from it.
    public static let nusTX = BLEUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!
    public static let primaryService = BLEUUID(0x2800)
    public static let characteristic = BLEUUID(0x2803)
    public static let clientCharacteristicConfiguration = BLEUUID(0x2902)
}
