/// A GATT client on one ATT bearer: one request outstanding at a time (ATT's rule),
/// notifications and indications delivered as they come. No I/O of its own: it sends through
/// `send` and is fed received PDUs through `receive`, so it is tested without a radio.
public actor GATTClient {
    public typealias Send = @Sendable ([UInt8]) async throws -> Void

    /// The ATT MTU in force (23 until exchanged).
    public private(set) var mtu = 23
    /// Values notified or indicated by the server, in order.
    public nonisolated let notifications: AsyncStream<(handle: UInt16, value: [UInt8])>
    private let notificationSink: AsyncStream<(handle: UInt16, value: [UInt8])>.Continuation
    private let send: Send
    private let timeout: Duration
    private var busy = false
    private var turnWaiters: [CheckedContinuation<Void, Never>] = []
    private var response: CheckedContinuation<ATTPDU, Error>?
    private var requestSerial = 0
    private var failure: GATTError?
    /// Where this client talks, for errors ("F0:00:00:00:00:01").
    private let peer: String

    public init(peer: String, timeout: Duration = .seconds(30), send: @escaping Send) {
        self.peer = peer
        self.timeout = timeout
        self.send = send
        (notifications, notificationSink) = AsyncStream.makeStream(of: (handle: UInt16, value: [UInt8]).self)
    }

    // MARK: Bearer

    /// A PDU from the server.
    public func receive(_ bytes: [UInt8]) async {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes)
        } catch {
            // A request we cannot parse still gets an answer, so the server does not wait 30 s.
            if let op = bytes.first, isRequest(op) { await reply(.errorResponse(request: op, handle: 0, error: .invalidPDU)) }
            return
        }
        switch pdu {
        case let .notification(handle, value):
            notificationSink.yield((handle, value))
        case let .indication(handle, value):
            notificationSink.yield((handle, value))
            await reply(.confirmation)
        case .exchangeMTURequest:
            // A server may ask too; answer with the same maximum we ask for.
            await reply(.exchangeMTUResponse(mtu: 247))
        case let .unsupported(opcode):
            if isRequest(opcode) { await reply(.errorResponse(request: opcode, handle: 0, error: .requestNotSupported)) }
        case .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest, .readByGroupTypeRequest, .writeRequest:
            // No attributes are served here.
            await reply(.errorResponse(request: pdu.opcode, handle: 0, error: .attributeNotFound))
        case .writeCommand, .confirmation:
            break
        default:
            if let r = response {
                response = nil
                r.resume(returning: pdu)
            }
        }
    }

    /// The bearer is gone: the request waiting fails, later ones fail at once.
    public func close(_ error: GATTError) {
        guard failure == nil else { return }
        failure = error
        response?.resume(throwing: error)
        response = nil
        notificationSink.finish()
    }

    private func isRequest(_ opcode: UInt8) -> Bool { opcode & 0x40 == 0 && opcode % 2 == 0 && opcode != ATTPDU.Opcode.confirmation && opcode != 0 }

    private func reply(_ pdu: ATTPDU) async {
        do {
            try await send(pdu.bytes)
        } catch {
            close(.bearer("\(error)"))
        }
    }

    // MARK: Requests

    /// Sends a request and waits for its response; an Error Response throws `GATTError.att`.
    public func request(_ pdu: ATTPDU) async throws -> ATTPDU {
        await takeTurn()
        defer { passTurn() }
        if let failure { throw failure }
        requestSerial += 1
        let serial = requestSerial
        let limit = timeout
        let timer = Task { [weak self] in
            try await Task.sleep(for: limit)
            await self?.expire(serial, pdu.opcode)
        }
        defer { timer.cancel() }
        let answer: ATTPDU = try await withCheckedThrowingContinuation { continuation in
            response = continuation
            Task {
                do {
                    try await send(pdu.bytes)
                } catch {
                    self.failSend(serial, error)
                }
            }
        }
        if case let .errorResponse(request, handle, error) = answer {
            throw GATTError.att(request: request, handle: handle, error: error)
        }
        return answer
    }

    /// Sends a PDU that has no response (Write Command).
    public func command(_ pdu: ATTPDU) async throws {
        if let failure { throw failure }
        try await send(pdu.bytes)
    }

    private func failSend(_ serial: Int, _ error: Error) {
        guard serial == requestSerial, let r = response else { return }
        response = nil
        r.resume(throwing: GATTError.bearer("\(error)"))
    }

    private func expire(_ serial: Int, _ opcode: UInt8) {
        guard serial == requestSerial, response != nil else { return }
        // ATT: after a transaction timeout no further PDUs may be sent on this bearer.
        close(.timeout(peer: peer, opcode: opcode, seconds: Int(timeout.components.seconds)))
    }

    private func takeTurn() async {
        if !busy { busy = true; return }
        await withCheckedContinuation { turnWaiters.append($0) }
    }

    private func passTurn() {
        if turnWaiters.isEmpty { busy = false } else { turnWaiters.removeFirst().resume() }
    }

    // MARK: Procedures

    /// Exchange MTU: the ATT MTU becomes the smaller of both sides' maxima.
    @discardableResult
    public func exchangeMTU(_ wanted: Int = 247) async throws -> Int {
        guard case let .exchangeMTUResponse(server) = try await request(.exchangeMTURequest(mtu: UInt16(wanted))) else {
            throw GATTError.unexpected("Exchange MTU")
        }
        mtu = max(23, min(wanted, Int(server)))
        return mtu
    }

    /// Discover Primary Service by Service UUID; nil when the server has none.
    public func primaryService(_ uuid: BLEUUID) async throws -> GATTService? {
        do {
            let answer = try await request(.findByTypeValueRequest(start: 1, end: 0xFFFF, type: 0x2800, value: uuid.attField))
            guard case let .findByTypeValueResponse(list) = answer, let first = list.first else { throw GATTError.unexpected("Find By Type Value") }
            return GATTService(uuid: uuid, start: first.found, end: first.groupEnd)
        } catch GATTError.att(_, _, .attributeNotFound) {
            return nil
        }
    }

    /// Discover All Characteristics of a Service (Read By Type 0x2803 over its range).
    public func characteristics(of service: GATTService) async throws -> [GATTCharacteristic] {
        var found: [GATTCharacteristic] = []
        var start = service.start
        while start <= service.end {
            let answer: ATTPDU
            do {
                answer = try await request(.readByTypeRequest(start: start, end: service.end, type: .characteristic))
            } catch GATTError.att(_, _, .attributeNotFound) {
                break
            }
            guard case let .readByTypeResponse(list) = answer else { throw GATTError.unexpected("Read By Type") }
            for entry in list {
                // In handle order within the range asked for: each characteristic ends before the
                // next declaration, and the next request starts after the last one.
                guard entry.handle >= start, entry.handle <= service.end, found.last.map({ entry.handle > $0.declaration }) ?? true else {
                    throw GATTError.unexpected("Read By Type: a characteristic declaration at handle \(hex(entry.handle)), out of order or outside \(hex(start))-\(hex(service.end))")
                }
                let v = entry.value
                guard v.count == 5 || v.count == 19 else { throw GATTError.unexpected("characteristic declaration of \(v.count) bytes") }
                found.append(GATTCharacteristic(uuid: BLEUUID(littleEndian: Array(v[3...])), declaration: entry.handle,
                                                value: UInt16(v[1]) | UInt16(v[2]) << 8, properties: v[0]))
            }
            guard let last = list.last?.handle, last < service.end else { break }
            start = last + 1
        }
        // Each characteristic ends where the next declaration starts (or at the service's end).
        for i in found.indices {
            found[i].end = i + 1 < found.count ? found[i + 1].declaration - 1 : service.end
        }
        return found
    }

    /// Discover All Characteristic Descriptors (Find Information over the characteristic's range).
    public func descriptors(of characteristic: GATTCharacteristic) async throws -> [(handle: UInt16, type: BLEUUID)] {
        var found: [(handle: UInt16, type: BLEUUID)] = []
        guard characteristic.value < characteristic.end else { return found }
        var start = characteristic.value + 1
        while start <= characteristic.end {
            let answer: ATTPDU
            do {
                answer = try await request(.findInformationRequest(start: start, end: characteristic.end))
            } catch GATTError.att(_, _, .attributeNotFound) {
                break
            }
            guard case let .findInformationResponse(list) = answer, let last = list.last else { throw GATTError.unexpected("Find Information") }
            // Handles outside the range asked for would make the next request go backwards.
            guard list.allSatisfy({ (start...characteristic.end).contains($0.handle) }) else {
                throw GATTError.unexpected("Find Information: a descriptor handle outside \(hex(start))-\(hex(characteristic.end))")
            }
            found += list
            guard last.handle < characteristic.end else { break }
            start = last.handle + 1
        }
        return found
    }

    public func read(_ handle: UInt16) async throws -> [UInt8] {
        guard case let .readResponse(value) = try await request(.readRequest(handle: handle)) else { throw GATTError.unexpected("Read") }
        return value
    }

    /// Write Characteristic Value: with a response (acknowledged, errors reported) or as a command.
    public func write(_ handle: UInt16, _ value: [UInt8], withResponse: Bool) async throws {
        guard value.count <= mtu - 3 else { throw GATTError.tooLong(value.count, max: mtu - 3) }
        if withResponse {
            guard case .writeResponse = try await request(.writeRequest(handle: handle, value: value)) else { throw GATTError.unexpected("Write") }
        } else {
            try await command(.writeCommand(handle: handle, value: value))
        }
    }
}

/// "0x000e", as handles are written in errors.
private func hex(_ handle: UInt16) -> String { "0x" + String(handle, radix: 16) }

/// A primary service and its handle range.
public struct GATTService: Equatable, Sendable {
    public var uuid: BLEUUID
    public var start: UInt16
    public var end: UInt16
}

/// A characteristic: declaration and value handles, properties, and the last handle of its descriptors.
public struct GATTCharacteristic: Equatable, Sendable {
    public var uuid: BLEUUID
    public var declaration: UInt16
    public var value: UInt16
    public var properties: UInt8
    public var end: UInt16 = 0

    public var canNotify: Bool { properties & 0x10 != 0 }
    public var canIndicate: Bool { properties & 0x20 != 0 }
    public var canWrite: Bool { properties & 0x08 != 0 }
    public var canWriteWithoutResponse: Bool { properties & 0x04 != 0 }
}

/// A GATT procedure that failed.
public enum GATTError: Error, Equatable, CustomStringConvertible {
    /// The server answered with an Error Response.
    case att(request: UInt8, handle: UInt16, error: ATTErrorCode)
    /// No response within the ATT transaction timeout; the bearer is unusable after it.
    case timeout(peer: String, opcode: UInt8, seconds: Int)
    /// The server answered with a PDU that does not fit the request.
    case unexpected(String)
    /// A value longer than the ATT MTU allows.
    case tooLong(Int, max: Int)
    /// The connection under the bearer is gone.
    case bearer(String)

    public var description: String {
        switch self {
        case let .att(request, handle, error):
            let hint = error.needsSecurity ? ": the radio requires pairing (give the PIN with ?pin=)" : ""
            return "ATT request 0x\(String(request, radix: 16)) on handle 0x\(String(handle, radix: 16)) failed with \(error)\(hint)"
        case let .timeout(peer, opcode, seconds): return "\(peer) did not answer ATT request 0x\(String(opcode, radix: 16)) within \(seconds) s"
        case let .unexpected(what): return "unexpected answer to \(what)"
        case let .tooLong(count, max): return "a value of \(count) bytes exceeds the ATT MTU's \(max)"
        case let .bearer(reason): return reason
        }
    }
}
