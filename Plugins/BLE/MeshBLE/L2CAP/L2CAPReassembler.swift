/// Joins the ACL fragments of one connection into L2CAP basic frames (Core Vol 3 Part A 3.1)
/// and splits outgoing frames to the controller's ACL buffer size. Pure: no I/O.
public struct L2CAPReassembler: Sendable {
    private var partial: [UInt8] = []
    private var inFrame = false

    public init() {}

    /// Feeds one ACL packet's data; returns (channel, payload) when a frame completes.
    public mutating func push(_ acl: ACLData) throws(L2CAPError) -> (cid: UInt16, payload: [UInt8])? {
        if acl.boundary == .continuing {
            guard inFrame else { throw L2CAPError.unexpectedContinuation(handle: acl.handle) }
            partial += acl.data
        } else {
            // A new start abandons an unfinished frame, as a controller flushing it would.
            partial = acl.data
            inFrame = true
        }
        // The basic header (length, channel) may itself be split over fragments.
        guard partial.count >= 4 else { return nil }
        let declared = Int(partial[0]) | Int(partial[1]) << 8
        guard partial.count >= declared + 4 else { return nil }
        defer { partial = []; inFrame = false }
        guard partial.count == declared + 4 else {
            throw L2CAPError.overlong(handle: acl.handle, declared: declared, received: partial.count - 4)
        }
        return (UInt16(partial[2]) | UInt16(partial[3]) << 8, Array(partial[4...]))
    }

    /// The ACL packets for one L2CAP frame, each at most `bufferSize` bytes of data.
    public static func fragments(handle: UInt16, cid: UInt16, payload: [UInt8], bufferSize: Int) -> [ACLData] {
        var frame: [UInt8] = []
        frame.appendLE(UInt16(payload.count))
        frame.appendLE(cid)
        frame += payload
        var out: [ACLData] = []
        var offset = 0
        while offset < frame.count {
            let end = min(frame.count, offset + bufferSize)
            out.append(ACLData(handle: handle, boundary: offset == 0 ? .firstNonFlushable : .continuing, data: Array(frame[offset..<end])))
            offset = end
        }
        return out
    }
}

/// ACL data that does not make an L2CAP frame.
public enum L2CAPError: Error, Equatable, CustomStringConvertible {
    case unexpectedContinuation(handle: UInt16)
    case overlong(handle: UInt16, declared: Int, received: Int)

    public var description: String {
        switch self {
        case let .unexpectedContinuation(handle):
            return "ACL continuation on connection 0x\(String(handle, radix: 16)) with no frame started: dropped"
        case let .overlong(handle, declared, received):
            return "L2CAP frame on connection 0x\(String(handle, radix: 16)) declares \(declared) bytes but carries \(received): dropped"
        }
    }
}

/// Fixed LE channels.
public enum L2CAPChannel {
    public static let att: UInt16 = 0x0004
    public static let signalling: UInt16 = 0x0005
    public static let smp: UInt16 = 0x0006
}
