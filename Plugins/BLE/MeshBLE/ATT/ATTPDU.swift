/// The ATT PDUs a GATT client sends and receives (Core Vol 3 Part F 3.4).
public enum ATTPDU: Equatable, Sendable {
    case errorResponse(request: UInt8, handle: UInt16, error: ATTErrorCode)
    case exchangeMTURequest(mtu: UInt16)
    case exchangeMTUResponse(mtu: UInt16)
    case findInformationRequest(start: UInt16, end: UInt16)
    /// (handle, type) pairs.
    case findInformationResponse([(handle: UInt16, type: BLEUUID)])
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    /// (found handle, group end handle) pairs.
    case findByTypeValueResponse([(found: UInt16, groupEnd: UInt16)])
    case readByTypeRequest(start: UInt16, end: UInt16, type: BLEUUID)
    /// (handle, value) pairs, all values of one length.
    case readByTypeResponse([(handle: UInt16, value: [UInt8])])
    case readRequest(handle: UInt16)
    case readResponse(value: [UInt8])
    case readByGroupTypeRequest(start: UInt16, end: UInt16, type: BLEUUID)
    case readByGroupTypeResponse([(handle: UInt16, groupEnd: UInt16, value: [UInt8])])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case writeCommand(handle: UInt16, value: [UInt8])
    case notification(handle: UInt16, value: [UInt8])
    case indication(handle: UInt16, value: [UInt8])
    case confirmation
    /// An opcode this client does not use; a server's request gets Request Not Supported.
    case unsupported(opcode: UInt8)

    public enum Opcode {
        public static let errorResponse: UInt8 = 0x01
        public static let exchangeMTURequest: UInt8 = 0x02
        public static let exchangeMTUResponse: UInt8 = 0x03
        public static let findInformationRequest: UInt8 = 0x04
        public static let findInformationResponse: UInt8 = 0x05
        public static let findByTypeValueRequest: UInt8 = 0x06
        public static let findByTypeValueResponse: UInt8 = 0x07
        public static let readByTypeRequest: UInt8 = 0x08
        public static let readByTypeResponse: UInt8 = 0x09
        public static let readRequest: UInt8 = 0x0A
        public static let readResponse: UInt8 = 0x0B
        public static let readByGroupTypeRequest: UInt8 = 0x10
        public static let readByGroupTypeResponse: UInt8 = 0x11
        public static let writeRequest: UInt8 = 0x12
        public static let writeResponse: UInt8 = 0x13
        public static let notification: UInt8 = 0x1B
        public static let indication: UInt8 = 0x1D
        public static let confirmation: UInt8 = 0x1E
        public static let writeCommand: UInt8 = 0x52
    }

    public static func == (a: ATTPDU, b: ATTPDU) -> Bool { a.bytes == b.bytes }

    public var opcode: UInt8 { bytes[0] }

    public var bytes: [UInt8] {
        // One buffer for the whole PDU: growing it append by append was most of its cost.
        var p: [UInt8] = []
        p.reserveCapacity(64)
        switch self {
        case let .errorResponse(request, handle, error):
            p.append(Opcode.errorResponse); p.append(request); p.appendLE(handle); p.append(error.rawValue)
        case let .exchangeMTURequest(mtu): p.append(Opcode.exchangeMTURequest); p.appendLE(mtu)
        case let .exchangeMTUResponse(mtu): p.append(Opcode.exchangeMTUResponse); p.appendLE(mtu)
        case let .findInformationRequest(start, end): p.append(Opcode.findInformationRequest); p.appendLE(start); p.appendLE(end)
        case let .findInformationResponse(list):
            p.append(Opcode.findInformationResponse); p.append(list.first.map { $0.type.short != nil ? 1 : 2 } ?? 1)
            for e in list { p.appendLE(e.handle); p += e.type.attField }
        case let .findByTypeValueRequest(start, end, type, value):
            p.append(Opcode.findByTypeValueRequest); p.appendLE(start); p.appendLE(end); p.appendLE(type); p += value
        case let .findByTypeValueResponse(list):
            p.append(Opcode.findByTypeValueResponse)
            for e in list { p.appendLE(e.found); p.appendLE(e.groupEnd) }
        case let .readByTypeRequest(start, end, type):
            p.append(Opcode.readByTypeRequest); p.appendLE(start); p.appendLE(end); p += type.attField
        case let .readByTypeResponse(list):
            p.append(Opcode.readByTypeResponse); p.append(UInt8(2 + (list.first?.value.count ?? 0)))
            for e in list { p.appendLE(e.handle); p += e.value }
        case let .readRequest(handle): p.append(Opcode.readRequest); p.appendLE(handle)
        case let .readResponse(value): p.append(Opcode.readResponse); p += value
        case let .readByGroupTypeRequest(start, end, type):
            p.append(Opcode.readByGroupTypeRequest); p.appendLE(start); p.appendLE(end); p += type.attField
        case let .readByGroupTypeResponse(list):
            p.append(Opcode.readByGroupTypeResponse); p.append(UInt8(4 + (list.first?.value.count ?? 0)))
            for e in list { p.appendLE(e.handle); p.appendLE(e.groupEnd); p += e.value }
        case let .writeRequest(handle, value): p.append(Opcode.writeRequest); p.appendLE(handle); p += value
        case .writeResponse: p.append(Opcode.writeResponse)
        case let .writeCommand(handle, value): p.append(Opcode.writeCommand); p.appendLE(handle); p += value
        case let .notification(handle, value): p.append(Opcode.notification); p.appendLE(handle); p += value
        case let .indication(handle, value): p.append(Opcode.indication); p.appendLE(handle); p += value
        case .confirmation: p.append(Opcode.confirmation)
        case let .unsupported(opcode): p.append(opcode)
        }
        return p
    }

    /// Decodes a PDU; one shorter than its fields, or with lists that do not divide evenly, is a typed error.
    public init(_ bytes: [UInt8]) throws(ATTDecodeError) {
        guard let opcode = bytes.first else { throw ATTDecodeError(opcode: nil, reason: "empty ATT PDU") }
        var r = ByteReader(bytes.dropFirst(), what: "ATT PDU 0x" + String(opcode, radix: 16))
        do {
            switch opcode {
            case Opcode.errorResponse:
                let request = try r.u8(), handle = try r.u16(), code = try r.u8()
                self = .errorResponse(request: request, handle: handle, error: ATTErrorCode(rawValue: code))
            case Opcode.exchangeMTURequest: self = .exchangeMTURequest(mtu: try r.u16())
            case Opcode.exchangeMTUResponse: self = .exchangeMTUResponse(mtu: try r.u16())
            case Opcode.findInformationRequest: self = .findInformationRequest(start: try r.u16(), end: try r.u16())
            case Opcode.findInformationResponse:
                let format = try r.u8()
                guard format == 1 || format == 2 else { throw ATTDecodeError(opcode: opcode, reason: "unknown format \(format)") }
                let width = format == 1 ? 2 : 16
                self = .findInformationResponse(try ATTPDU.entries(&r, size: 2 + width, opcode: opcode) { e in
                    (UInt16(e[0]) | UInt16(e[1]) << 8, BLEUUID(littleEndian: Array(e[2...])))
                })
            case Opcode.findByTypeValueRequest:
                self = .findByTypeValueRequest(start: try r.u16(), end: try r.u16(), type: try r.u16(), value: r.rest())
            case Opcode.findByTypeValueResponse:
                self = .findByTypeValueResponse(try ATTPDU.entries(&r, size: 4, opcode: opcode) { e in
                    (UInt16(e[0]) | UInt16(e[1]) << 8, UInt16(e[2]) | UInt16(e[3]) << 8)
                })
            case Opcode.readByTypeRequest, Opcode.readByGroupTypeRequest:
                let start = try r.u16(), end = try r.u16()
                let uuid = r.rest()
                guard uuid.count == 2 || uuid.count == 16 else { throw ATTDecodeError(opcode: opcode, reason: "a UUID of \(uuid.count) bytes") }
                self = opcode == Opcode.readByTypeRequest
                    ? .readByTypeRequest(start: start, end: end, type: BLEUUID(littleEndian: uuid))
                    : .readByGroupTypeRequest(start: start, end: end, type: BLEUUID(littleEndian: uuid))
            case Opcode.readByTypeResponse:
                let size = Int(try r.u8())
                guard size >= 2 else { throw ATTDecodeError(opcode: opcode, reason: "entry length \(size)") }
                self = .readByTypeResponse(try ATTPDU.entries(&r, size: size, opcode: opcode) { e in
                    (UInt16(e[0]) | UInt16(e[1]) << 8, Array(e[2...]))
                })
            case Opcode.readRequest: self = .readRequest(handle: try r.u16())
            case Opcode.readResponse: self = .readResponse(value: r.rest())
            case Opcode.readByGroupTypeResponse:
                let size = Int(try r.u8())
                guard size >= 4 else { throw ATTDecodeError(opcode: opcode, reason: "entry length \(size)") }
                self = .readByGroupTypeResponse(try ATTPDU.entries(&r, size: size, opcode: opcode) { e in
                    (UInt16(e[0]) | UInt16(e[1]) << 8, UInt16(e[2]) | UInt16(e[3]) << 8, Array(e[4...]))
                })
            case Opcode.writeRequest: self = .writeRequest(handle: try r.u16(), value: r.rest())
            case Opcode.writeResponse: self = .writeResponse
            case Opcode.writeCommand: self = .writeCommand(handle: try r.u16(), value: r.rest())
            case Opcode.notification: self = .notification(handle: try r.u16(), value: r.rest())
            case Opcode.indication: self = .indication(handle: try r.u16(), value: r.rest())
            case Opcode.confirmation: self = .confirmation
            default: self = .unsupported(opcode: opcode)
            }
        } catch let e as TruncatedPDU {
            throw ATTDecodeError(opcode: opcode, reason: e.description)
        } catch let e as ATTDecodeError {
            throw e
        } catch {
            throw ATTDecodeError(opcode: opcode, reason: "\(error)")
        }
    }

    private static func entries<T>(_ r: inout ByteReader, size: Int, opcode: UInt8, _ make: ([UInt8]) -> T) throws -> [T] {
        guard r.remaining > 0, r.remaining % size == 0 else {
            throw ATTDecodeError(opcode: opcode, reason: "\(r.remaining) bytes of entries do not divide into entries of \(size)")
        }
        var out: [T] = []
        while r.remaining > 0 { out.append(make(try r.take(size))) }
        return out
    }
}

/// An ATT PDU that cannot be decoded.
public struct ATTDecodeError: Error, Equatable, CustomStringConvertible {
    public let opcode: UInt8?
    public let reason: String
    public var description: String {
        "malformed ATT PDU" + (opcode.map { " 0x" + String($0, radix: 16) } ?? "") + ": \(reason)"
    }
}
