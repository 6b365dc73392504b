/// Splits a byte stream from an H4 transport (UART, TCP, user channel) into HCI packets.
/// Pure: bytes in, packets out, in any chunking.
public struct H4Framer: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// Appends bytes and returns every packet they complete. A byte that is no H4 indicator
    /// means the stream lost sync; nothing after it can be trusted, so it is an error.
    public mutating func push(_ bytes: some Collection<UInt8>) throws(HCIFramingError) -> [HCIPacket] {
        buffer.append(contentsOf: bytes)
        var packets: [HCIPacket] = []
        var start = 0
        defer { buffer.removeFirst(start) }
        while start < buffer.count {
            guard let indicator = HCIPacket.Indicator(rawValue: buffer[start]) else {
                throw HCIFramingError(indicator: buffer[start])
            }
            let headerLength: Int
            switch indicator {
            case .command, .sco: headerLength = 3
            case .acl, .iso: headerLength = 4
            case .event: headerLength = 2
            }
            let body = start + 1
            guard buffer.count >= body + headerLength else { break }
            let length: Int
            switch indicator {
            case .command, .sco: length = Int(buffer[body + 2])
            case .acl: length = Int(buffer[body + 2]) | Int(buffer[body + 3]) << 8
            case .iso: length = (Int(buffer[body + 2]) | Int(buffer[body + 3]) << 8) & 0x3FFF
            case .event: length = Int(buffer[body + 1])
            }
            let end = body + headerLength + length
            guard buffer.count >= end else { break }
            let payload = Array(buffer[(body + headerLength)..<end])
            switch indicator {
            case .command:
                packets.append(.command(HCICommand(opcode: UInt16(buffer[body]) | UInt16(buffer[body + 1]) << 8, parameters: payload)))
            case .acl:
                let header = UInt16(buffer[body]) | UInt16(buffer[body + 1]) << 8
                // Broadcast flags (bits 14-15) are unused on LE; an unknown boundary value reads as continuing.
                let boundary = ACLData.Boundary(rawValue: UInt8((header >> 12) & 0x3)) ?? .continuing
                packets.append(.acl(ACLData(handle: header & 0x0FFF, boundary: boundary, data: payload)))
            case .event:
                packets.append(.event(code: buffer[body], parameters: payload))
            case .sco, .iso:
                break  // Not used on an LE central; skipped whole.
            }
            start = end
        }
        return packets
    }
}

/// The H4 stream carried a byte that starts no packet.
public struct HCIFramingError: Error, Equatable, CustomStringConvertible {
    public let indicator: UInt8
    public var description: String {
        "the HCI transport sent 0x\(String(indicator, radix: 16)) where an H4 packet indicator (01, 02, 04) belongs: the stream is out of sync (is the hci= device an H4 controller?)"
    }
}
