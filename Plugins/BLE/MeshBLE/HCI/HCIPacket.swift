/// One HCI packet as H4 carries it: an indicator byte, then the packet (Core Vol 4 Part A 2).
public enum HCIPacket: Equatable, Sendable {
    case command(HCICommand)
    case acl(ACLData)
    /// An event code and its parameters; `HCIEvent(_:)` decodes the ones the host uses.
    case event(code: UInt8, parameters: [UInt8])

    /// H4 packet indicators.
    enum Indicator: UInt8 {
        case command = 0x01
        case acl = 0x02
        case sco = 0x03
        case event = 0x04
        case iso = 0x05
    }

    /// The packet with its H4 indicator, as written to a UART, an H4 socket or a user channel.
    public var h4: [UInt8] {
        switch self {
        case let .command(c):
            return [Indicator.command.rawValue, UInt8(c.opcode & 0xFF), UInt8(c.opcode >> 8), UInt8(c.parameters.count)] + c.parameters
        case let .acl(a):
            let header = a.handle | (UInt16(a.boundary.rawValue) << 12)
            return [Indicator.acl.rawValue, UInt8(header & 0xFF), UInt8(header >> 8), UInt8(a.data.count & 0xFF), UInt8(a.data.count >> 8)] + a.data
        case let .event(code, parameters):
            return [Indicator.event.rawValue, code, UInt8(parameters.count)] + parameters
        }
    }
}

/// One ACL data packet: a fragment of an L2CAP PDU on one connection.
public struct ACLData: Equatable, Sendable {
    /// Packet_Boundary_Flag.
    public enum Boundary: UInt8, Sendable {
        /// Host to controller: first fragment of a PDU.
        case firstNonFlushable = 0b00
        case continuing = 0b01
        /// Controller to host: first fragment of a PDU.
        case firstFlushable = 0b10
    }

    public var handle: UInt16
    public var boundary: Boundary
    public var data: [UInt8]

    public init(handle: UInt16, boundary: Boundary, data: [UInt8]) {
        self.handle = handle
        self.boundary = boundary
        self.data = data
    }
}
