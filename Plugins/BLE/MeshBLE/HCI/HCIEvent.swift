/// The events an LE central handles, decoded from an event packet (Core Vol 4 Part E 7.7).
public enum HCIEvent: Equatable, Sendable {
    case commandComplete(numPackets: UInt8, opcode: UInt16, returnParameters: [UInt8])
    case commandStatus(status: UInt8, numPackets: UInt8, opcode: UInt16)
    case disconnectionComplete(status: UInt8, handle: UInt16, reason: UInt8)
    case encryptionChange(status: UInt8, handle: UInt16, enabled: Bool)
    case encryptionKeyRefreshComplete(status: UInt8, handle: UInt16)
    case numberOfCompletedPackets([(handle: UInt16, count: UInt16)])
    case hardwareError(code: UInt8)
    case dataBufferOverflow
    case leConnectionComplete(LEConnectionComplete)
    case leAdvertisingReports([AdvertisingReport])
    case leConnectionUpdateComplete(status: UInt8, handle: UInt16, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    case leRemoteConnectionParameterRequest(handle: UInt16, parameters: ConnectionParameters)
    /// Events and LE subevents the host does not use.
    case other(code: UInt8, subevent: UInt8?)

    public static func == (a: HCIEvent, b: HCIEvent) -> Bool {
        switch (a, b) {
        case let (.numberOfCompletedPackets(x), .numberOfCompletedPackets(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.handle == $1.handle && $0.count == $1.count }
        case let (.commandComplete(a1, a2, a3), .commandComplete(b1, b2, b3)): return a1 == b1 && a2 == b2 && a3 == b3
        case let (.commandStatus(a1, a2, a3), .commandStatus(b1, b2, b3)): return a1 == b1 && a2 == b2 && a3 == b3
        case let (.disconnectionComplete(a1, a2, a3), .disconnectionComplete(b1, b2, b3)): return a1 == b1 && a2 == b2 && a3 == b3
        case let (.encryptionChange(a1, a2, a3), .encryptionChange(b1, b2, b3)): return a1 == b1 && a2 == b2 && a3 == b3
        case let (.encryptionKeyRefreshComplete(a1, a2), .encryptionKeyRefreshComplete(b1, b2)): return a1 == b1 && a2 == b2
        case let (.hardwareError(x), .hardwareError(y)): return x == y
        case (.dataBufferOverflow, .dataBufferOverflow): return true
        case let (.leConnectionComplete(x), .leConnectionComplete(y)): return x == y
        case let (.leAdvertisingReports(x), .leAdvertisingReports(y)): return x == y
        case let (.leConnectionUpdateComplete(a1, a2, a3, a4, a5), .leConnectionUpdateComplete(b1, b2, b3, b4, b5)):
            return a1 == b1 && a2 == b2 && a3 == b3 && a4 == b4 && a5 == b5
        case let (.leRemoteConnectionParameterRequest(a1, a2), .leRemoteConnectionParameterRequest(b1, b2)): return a1 == b1 && a2 == b2
        case let (.other(a1, a2), .other(b1, b2)): return a1 == b1 && a2 == b2
        default: return false
        }
    }

    /// Decodes an event packet's parameters; a packet shorter than its fields is a typed error.
    public init(code: UInt8, parameters: [UInt8]) throws(TruncatedPDU) {
        var r = ByteReader(parameters, what: "HCI event 0x" + String(code, radix: 16))
        switch code {
        case 0x05:
            self = .disconnectionComplete(status: try r.u8(), handle: try r.u16() & 0x0FFF, reason: try r.u8())
        case 0x08:
            self = .encryptionChange(status: try r.u8(), handle: try r.u16() & 0x0FFF, enabled: try r.u8() != 0)
        case 0x0E:
            self = .commandComplete(numPackets: try r.u8(), opcode: try r.u16(), returnParameters: r.rest())
        case 0x0F:
            self = .commandStatus(status: try r.u8(), numPackets: try r.u8(), opcode: try r.u16())
        case 0x10:
            self = .hardwareError(code: try r.u8())
        case 0x13:
            let n = Int(try r.u8())
            var entries: [(handle: UInt16, count: UInt16)] = []
            for _ in 0..<n { entries.append((try r.u16() & 0x0FFF, try r.u16())) }
            self = .numberOfCompletedPackets(entries)
        case 0x1A:
            self = .dataBufferOverflow
        case 0x30:
            self = .encryptionKeyRefreshComplete(status: try r.u8(), handle: try r.u16() & 0x0FFF)
        case 0x3E:
            self = try HCIEvent.leMeta(&r)
        default:
            self = .other(code: code, subevent: nil)
        }
    }

    private static func leMeta(_ r: inout ByteReader) throws(TruncatedPDU) -> HCIEvent {
        let subevent = try r.u8()
        switch subevent {
        case 0x01, 0x0A:
            return .leConnectionComplete(try LEConnectionComplete(&r, enhanced: subevent == 0x0A))
        case 0x02:
            return .leAdvertisingReports(try AdvertisingReport.legacy(&r))
        case 0x03:
            return .leConnectionUpdateComplete(status: try r.u8(), handle: try r.u16() & 0x0FFF, interval: try r.u16(),
                                               latency: try r.u16(), supervisionTimeout: try r.u16())
        case 0x06:
            let handle = try r.u16() & 0x0FFF
            return .leRemoteConnectionParameterRequest(
                handle: handle,
                parameters: ConnectionParameters(intervalMin: try r.u16(), intervalMax: try r.u16(), latency: try r.u16(), supervisionTimeout: try r.u16()))
        case 0x0D:
            return .leAdvertisingReports(try AdvertisingReport.extended(&r))
        default:
            return .other(code: 0x3E, subevent: subevent)
        }
    }
}

/// LE (Enhanced) Connection Complete.
public struct LEConnectionComplete: Equatable, Sendable {
    public var status: UInt8
    public var handle: UInt16
    /// 0 central, 1 peripheral.
    public var role: UInt8
    public var peer: BDAddress
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16

    init(_ r: inout ByteReader, enhanced: Bool) throws(TruncatedPDU) {
        status = try r.u8()
        handle = try r.u16() & 0x0FFF
        role = try r.u8()
        // Types 2 and 3 (identity addresses resolved by the controller) read as their base type.
        let kind: BDAddress.Kind = try r.u8() & 1 == 0 ? .public : .random
        peer = BDAddress(littleEndian: try r.take(6), kind: kind)
        if enhanced { _ = try r.take(12) }  // local and peer resolvable private addresses
        interval = try r.u16()
        latency = try r.u16()
        supervisionTimeout = try r.u16()
    }
}
