/// The LE signalling channel (CID 5) as a central answers it (Core Vol 3 Part A 4):
/// a peripheral's Connection Parameter Update Request is accepted when valid and then applied
/// with HCI_LE_Connection_Update; anything else gets Command Reject. Pure: PDUs in, PDUs out.
public enum SignallingChannel {
    public static let commandReject: UInt8 = 0x01
    public static let connectionParameterUpdateRequest: UInt8 = 0x12
    public static let connectionParameterUpdateResponse: UInt8 = 0x13

    public struct Answer: Equatable, Sendable {
        /// The signalling PDU to send back, if any.
        public var reply: [UInt8]?
        /// Parameters to apply with HCI_LE_Connection_Update.
        public var apply: ConnectionParameters?
    }

    public static func answer(_ pdu: [UInt8]) -> Answer {
        // code, identifier, length (2), data
        guard pdu.count >= 4 else { return Answer(reply: nil, apply: nil) }
        let code = pdu[0], identifier = pdu[1]
        let length = Int(pdu[2]) | Int(pdu[3]) << 8
        let data = Array(pdu.dropFirst(4))
        switch code {
        case connectionParameterUpdateRequest where length == 8 && data.count == 8:
            let p = ConnectionParameters(intervalMin: UInt16(data[0]) | UInt16(data[1]) << 8, intervalMax: UInt16(data[2]) | UInt16(data[3]) << 8,
                                         latency: UInt16(data[4]) | UInt16(data[5]) << 8, supervisionTimeout: UInt16(data[6]) | UInt16(data[7]) << 8)
            var reply: [UInt8] = [connectionParameterUpdateResponse, identifier]
            reply.appendLE(UInt16(2))
            reply.appendLE(UInt16(p.isValid ? 0 : 1))  // 0 accepted, 1 rejected
            return Answer(reply: reply, apply: p.isValid ? p : nil)
        case commandReject, connectionParameterUpdateResponse:
            return Answer(reply: nil, apply: nil)  // answers to nothing we sent
        default:
            var reply: [UInt8] = [commandReject, identifier]
            reply.appendLE(UInt16(2))
            reply.appendLE(UInt16(0))  // command not understood
            return Answer(reply: reply, apply: nil)
        }
    }
}
