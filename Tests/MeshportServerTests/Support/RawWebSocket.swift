import Foundation
import NIOCore
import NIOPosix

/// A WebSocket client written for the tests (RFC 6455, client side): the upgrade request as
/// given, then text messages read one by one. `never reads` clients are simply not iterated.
final class RawWebSocket: @unchecked Sendable {
    enum Message: Sendable, Equatable {
        case text(String)
        case close(code: Int, reason: String)
    }

    let status: Int
    let responseHead: String
    private let link: Task<Void, Never>
    private var iterator: AsyncStream<ByteBuffer>.AsyncIterator
    private let outgoing: AsyncStream<ByteBuffer>.Continuation
    private var buffer: [UInt8] = []

    /// Connects and sends the upgrade; `status` is 101 when the server upgraded.
    static func connect(port: Int, path: String = "/api/events", headers: [(String, String)] = []) async throws -> RawWebSocket {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await RawWebSocket(channel: channel, port: port, path: path, headers: headers)
    }

    private init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, port: Int, path: String, headers: [(String, String)]) async throws {
        // The connection lives in a task of its own; bytes cross to this object by streams.
        let (incoming, incomingSink) = AsyncStream.makeStream(of: ByteBuffer.self)
        let (outgoingBytes, outgoing) = AsyncStream.makeStream(of: ByteBuffer.self)
        link = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            do {
                                for try await chunk in inbound { incomingSink.yield(chunk) }
                            } catch {
                                // Reset by the server: the same as its close here.
                            }
                            incomingSink.finish()
                        }
                        group.addTask {
                            do {
                                for await chunk in outgoingBytes { try await outbound.write(chunk) }
                            } catch {
                                incomingSink.finish()
                            }
                        }
                        await group.next()
                        group.cancelAll()
                    }
                }
            } catch {
                incomingSink.finish()
            }
        }
        iterator = incoming.makeAsyncIterator()
        self.outgoing = outgoing
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        outgoing.yield(ByteBuffer(string: head))
        var raw: [UInt8] = []
        var end: Int?
        while end == nil {
            guard let chunk = await iterator.next() else { break }
            raw += chunk.readableBytesView
            end = RawHTTP.find(raw, [13, 10, 13, 10])
        }
        guard let end else { throw TestFailure("the server closed during the upgrade: \(String(decoding: raw, as: UTF8.self))") }
        responseHead = String(decoding: raw[..<end], as: UTF8.self)
        status = Int(responseHead.split(separator: " ").dropFirst().first ?? "") ?? 0
        buffer = Array(raw[(end + 4)...])
    }

    /// The next text or close message. Throws when the connection ended without one (so a
    /// loop reading events can never spin on a closed connection) or none came within `limit`.
    func next(within limit: Duration = .seconds(20)) async throws -> Message {
        let message = try await withDeadline(limit, "WebSocket message") { [self] in try await self.readMessage() }
        guard let message else { throw TestFailure("the WebSocket connection ended") }
        return message
    }

    /// Reads events (JSON text messages) until one satisfies `predicate`, for at most `limit`
    /// in all; a close from the server ends the wait with an error naming its code.
    func event(_ what: String, within limit: Duration = .seconds(30), where predicate: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + limit
        while true {
            let left = deadline - .now
            guard left > .zero else { throw TestFailure("no \(what) within \(limit)") }
            let message = try await next(within: left)
            if case let .close(code, reason) = message { throw TestFailure("closed by the server (\(code) \(reason)) before \(what)") }
            let object = Self.object(message)
            if predicate(object) { return object }
        }
    }

    private func readMessage() async throws -> Message? {
        var text: [UInt8] = []
        while true {
            guard let (opcode, fin, payload) = try await readFrame() else { return nil }
            switch opcode {
            case 0x1, 0x0:
                text += payload
                if fin { return .text(String(decoding: text, as: UTF8.self)) }
            case 0x8:
                let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
            case 0x9:
                try await send(opcode: 0xA, payload)   // answer pings, as a browser does
            default:
                continue
            }
        }
    }

    private func readFrame() async throws -> (UInt8, Bool, [UInt8])? {
        func need(_ n: Int) async throws -> Bool {
            while buffer.count < n {
                guard let chunk = await iterator.next() else { return false }
                buffer += chunk.readableBytesView
            }
            return true
        }
        guard try await need(2) else { return nil }
        let fin = buffer[0] & 0x80 != 0, opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F), offset = 2
        if length == 126 {
            guard try await need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard try await need(10) else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard try await need(offset + length) else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        return (opcode, fin, payload)
    }

    /// Client frames are masked (RFC 6455 §5.3).
    func send(opcode: UInt8, _ payload: [UInt8]) async throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $1 ^ mask[$0 % 4] }
        outgoing.yield(ByteBuffer(bytes: frame))
    }

    func close() async {
        do {
            try await send(opcode: 0x8, [0x03, 0xE8])
        } catch {
            // Already closed by the server.
        }
        outgoing.finish()
        link.cancel()
    }

    deinit {
        outgoing.finish()
        link.cancel()
    }

    /// Parsed JSON of a text message.
    static func object(_ message: Message) -> [String: Any] {
        guard case let .text(text) = message,
              let value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
        return value
    }
}
