import Foundation
import MeshCodec
import MeshTransport

/// One client session on one radio link: commands go out one at a time in the order they were
/// asked for, each answered or failed with a typed error within its time limit; pushes and
/// state changes reach `events`.
public actor RadioSession {
    public enum State: Hashable, Sendable { case disconnected, connecting, initializing, ready }

    public let transport: any Transport
    public let clientName: String
    /// A command's time limit (protocol.md §7.8: 5 s; pairing over BLE needs longer).
    public let commandTimeout: Duration
    public private(set) var state: State = .disconnected
    public nonisolated let events: AsyncStream<SessionEvent>
    private let eventSink: AsyncStream<SessionEvent>.Continuation

    /// The command in flight and what it has received so far.
    private struct Pending {
        let id: Int
        let command: String
        let isComplete: @Sendable ([RadioFrame]) -> Bool
        var frames: [RadioFrame] = []
        let continuation: CheckedContinuation<[RadioFrame], any Error>
        /// Fails the command when its time is up; cancelled once it is answered.
        let timer: Task<Void, Never>
    }
    private var pending: Pending?
    private var nextID = 0
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var reader: Task<Void, Never>?

    public init(transport: any Transport, clientName: String = "meshport", commandTimeout: Duration = .seconds(5)) {
        self.transport = transport
        self.clientName = clientName
        self.commandTimeout = commandTimeout
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    private var link: String { transport.url.text }

    /// Opens the link and starts reading it; `initialize()` then brings the session up.
    public func open() async throws {
        set(.connecting)
        try await transport.open()
        let frames = transport.frames
        reader = Task { [weak self] in
            for await frame in frames { await self?.received(frame) }
            await self?.linkEnded()
        }
        set(.initializing)
    }

    public func close() async {
        reader?.cancel()
        await transport.close()
        linkEnded()
    }

    func set(_ new: State) {
        guard new != state else { return }
        state = new
        eventSink.yield(.state(new))
    }

    func report(_ event: SessionEvent) { eventSink.yield(event) }

    /// Sends `command` once the commands before it are done and returns its answer: one
    /// frame, or as many as `isComplete` asks for (a contact stream). An error answer, no
    /// answer in time, or a closed link is a typed `SessionError`.
    public func exchange(_ command: Command, timeout: Duration? = nil,
                         until isComplete: @escaping @Sendable ([RadioFrame]) -> Bool = { _ in true }) async throws -> [RadioFrame] {
        let bytes = try command.encode()
        await acquire()
        defer { release() }
        nextID += 1
        let id = nextID, name = command.name, limit = timeout ?? commandTimeout
        return try await withCheckedThrowingContinuation { (c: CheckedContinuation<[RadioFrame], any Error>) in
            let timer = Task { [weak self] in
                do { try await Task.sleep(for: limit) } catch { return }
                await self?.finish(id, throwing: SessionError.noAnswer(command: name, link: self?.transport.url.text ?? "", seconds: limit.seconds))
            }
            pending = Pending(id: id, command: name, isComplete: isComplete, continuation: c, timer: timer)
            Task { [weak self, transport] in
                do {
                    try await transport.send(bytes)
                } catch {
                    await self?.finish(id, throwing: SessionError.linkClosed(command: name, link: transport.url.text, reason: "\(error)"))
                }
            }
        }
    }

    /// One command answered by one response.
    public func call(_ command: Command, timeout: Duration? = nil) async throws -> Response {
        let frames = try await exchange(command, timeout: timeout)
        guard case let .response(response)? = frames.first else {
            throw SessionError.unexpected(command: command.name, link: link, got: frames.first?.name ?? "nothing")
        }
        return response
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    private func received(_ bytes: [UInt8]) {
        let frame: RadioFrame
        do {
            frame = try RadioFrame(decoding: bytes)
        } catch let error as CodecError {
            if let p = pending { finish(p.id, throwing: SessionError.undecodable(command: p.command, link: link, error)) }
            return
        } catch {
            return
        }
        if case let .push(push) = frame {
            eventSink.yield(.push(push))
            return
        }
        guard var p = pending else {
            eventSink.yield(.stray(frame.name))
            return
        }
        if case let .response(.error(e)) = frame {
            finish(p.id, throwing: SessionError.refused(command: p.command, link: link, e))
            return
        }
        p.frames.append(frame)
        if p.isComplete(p.frames) {
            pending = nil
            p.timer.cancel()
            p.continuation.resume(returning: p.frames)
        } else {
            pending = p
        }
    }

    private func finish(_ id: Int, throwing error: any Error) {
        guard let p = pending, p.id == id else { return }
        pending = nil
        p.timer.cancel()
        p.continuation.resume(throwing: error)
    }

    private func linkEnded() {
        if let p = pending { finish(p.id, throwing: SessionError.linkClosed(command: p.command, link: link, reason: "link ended")) }
        set(.disconnected)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
