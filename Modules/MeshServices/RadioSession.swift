import Foundation
import Logging
import MeshCodec
import MeshTransport
import Synchronization

/// One client session on one radio: commands go out one at a time in the order they were
/// asked for, each answered or failed with a typed error within its time limit; pushes and
/// state changes reach every subscriber. A link lost while ready is reopened with backoff and
/// the session initialized again (see `RadioSession+Reconnect`).
public actor RadioSession {
    public enum State: Hashable, Sendable { case disconnected, connecting, initializing, ready, reconnecting }

    /// Makes a fresh link for each (re)connection: a closed link's frame stream is finished.
    public typealias TransportFactory = @Sendable () throws -> any Transport

    public nonisolated let url: TransportURL
    public let clientName: String
    /// A command's time limit (Docs/protocol.md §7.8: 5 s; pairing over BLE needs longer).
    public let commandTimeout: Duration
    public let reconnectPolicy: ReconnectPolicy
    /// Link losses and reconnects; the owner names the radio in its metadata (no URL here:
    /// a BLE URL may carry a pairing PIN).
    let logger: Logger
    public internal(set) var state: State = .disconnected
    let makeTransport: TransportFactory
    var transport: (any Transport)?
    /// Set by `connect`: what initialization does again after a reconnect.
    var setup: SessionSetup?
    var reconnector: Task<Void, Never>?
    /// `close()` was asked for: a link ending is then not a loss to repair.
    var closing = false

    /// The command in flight and what it has received so far.
    private struct Pending: Sendable {
        let id: Int
        let command: String
        /// SYNC_NEXT_MESSAGE: the only command a message (or NO_MORE_MESSAGES) answers.
        let drainsMessage: Bool
        let isComplete: @Sendable ([RadioFrame]) -> Bool
        /// For a command the firmware answers with a push only: the push that answers it.
        let answeringPush: (@Sendable (Push) -> Bool)?
        var frames: [RadioFrame] = []
        let continuation: CheckedContinuation<[RadioFrame], any Error>
        /// Fails the command when its time is up; cancelled once it is answered. Set just
        /// after the command is registered, so a limit that runs at once still finds it.
        var deadline: Deadlines.Token?

        /// Ends the command with `result`; its limit will not run.
        func end(_ result: Result<[RadioFrame], any Error>) {
            if let deadline { Deadlines.shared.cancel(deadline) }
            continuation.resume(with: result)
        }
    }
    /// Behind a lock rather than the actor: answers are matched on the link's own thread
    /// (`Transport.deliverFrames`), so the waiting command is woken straight from there, one
    /// thread hop per answer instead of three.
    private let inflight = Mutex<Pending?>(nil)
    private var nextID = 0
    /// One command in flight: the rest wait their turn in the order they were asked for.
    private let turns = TurnGate()
    private var reader: Task<Void, Never>?
    private let hub = EventHub<SessionEvent>()

    public init(url: TransportURL, clientName: String = "meshport", commandTimeout: Duration = .seconds(5),
                reconnect: ReconnectPolicy = .standard, logger: Logger = Logger(label: "meshport.session"),
                transport: @escaping TransportFactory) {
        self.url = url
        self.logger = logger
        self.clientName = clientName
        self.commandTimeout = commandTimeout
        self.reconnectPolicy = reconnect
        self.makeTransport = transport
    }

    /// A session on one link object, which cannot be reopened once lost: no reconnecting.
    public init(transport: any Transport, clientName: String = "meshport", commandTimeout: Duration = .seconds(5)) {
        self.init(url: transport.url, clientName: clientName, commandTimeout: commandTimeout, reconnect: .never, transport: { transport })
    }

    nonisolated var radioURL: String { url.text }

    /// Every event from now on, in order, until the subscriber stops iterating. Subscribe
    /// before sending what an event answers (an ACK, a login reply) so none is missed.
    public nonisolated func subscribe() -> AsyncStream<SessionEvent> { hub.subscribe() }

    /// Opens a new link and starts reading it; `connect` then brings the session up.
    public func open() async throws {
        set(.connecting)
        try await openLink()
        set(.initializing)
    }

    func openLink() async throws {
        let transport = try makeTransport()
        self.transport = transport
        // Frames the link hands over on its thread; the stream then only says when it ends.
        // Taken before the link opens, so no frame goes the other way first and overtakes.
        transport.deliverFrames { [weak self] frame in self?.received(frame) }
        try await transport.open()
        closing = false
        let frames = transport.frames
        reader = Task { [weak self] in
            for await frame in frames { self?.received(frame) }
            await self?.linkEnded(transport)
        }
    }

    /// Closes the link for good: no reconnect follows.
    public func close() async {
        closing = true
        reconnector?.cancel()
        reconnector = nil
        reader?.cancel()
        if let transport { await transport.close() }
        failPending("the session was closed")
        set(.disconnected)
    }

    func set(_ new: State) {
        guard new != state else { return }
        state = new
        report(.state(new))
    }

    nonisolated func report(_ event: SessionEvent) { hub.emit(event) }

    /// Sends `command` once the commands before it are done and returns its answer: one
    /// frame, or as many as `isComplete` asks for (a contact stream). An error answer, no
    /// answer in time, or a closed link is a typed `SessionError`.
    public func exchange(_ command: Command, timeout: Duration? = nil, answeredByPush answeringPush: (@Sendable (Push) -> Bool)? = nil,
                         until isComplete: @escaping @Sendable ([RadioFrame]) -> Bool = { _ in true }) async throws -> [RadioFrame] {
        let bytes = try command.encode()
        let name = command.name, limit = timeout ?? commandTimeout
        let drainsMessage = if case .syncNextMessage = command { true } else { false }
        return try await turns.run {
            try await self.perform(bytes, name: name, drainsMessage: drainsMessage, limit: limit, answeringPush: answeringPush, isComplete: isComplete)
        }
    }

    /// One command on the wire, its turn held: the answer, or a typed error.
    private func perform(_ bytes: [UInt8], name: String, drainsMessage: Bool, limit: Duration, answeringPush: (@Sendable (Push) -> Bool)?,
                         isComplete: @escaping @Sendable ([RadioFrame]) -> Bool) async throws -> [RadioFrame] {
        guard let transport else {
            throw SessionError.linkClosed(command: name, url: radioURL, reason: "not connected")
        }
        nextID += 1
        let id = nextID, radioURL = radioURL
        return try await withCheckedThrowingContinuation { (c: CheckedContinuation<[RadioFrame], any Error>) in
            inflight.withLock {
                $0 = Pending(id: id, command: name, drainsMessage: drainsMessage, isComplete: isComplete, answeringPush: answeringPush, continuation: c)
            }
            // The limit ends the command through a task, queued behind any answer already waiting
            // for a thread: on a starved machine an answer that came in time still wins.
            let deadline = Deadlines.shared.schedule(after: limit) { [weak self] in
                Task { self?.finish(id, throwing: SessionError.noAnswer(command: name, url: radioURL, seconds: limit.seconds)) }
            }
            let ended = inflight.withLock { pending in
                guard pending?.id == id else { return true }
                pending?.deadline = deadline
                return false
            }
            if ended {   // a limit of no time has run already
                Deadlines.shared.cancel(deadline)
                return
            }
            // Sent here when the link is free (no thread hop); otherwise by a task, in turn.
            if let sent = transport.sendIfIdle(bytes) {
                if case let .failure(error) = sent {
                    finish(id, throwing: SessionError.linkClosed(command: name, url: radioURL, reason: "\(error)"))
                }
                return
            }
            Task { [weak self] in
                do {
                    try await transport.send(bytes)
                } catch {
                    self?.finish(id, throwing: SessionError.linkClosed(command: name, url: radioURL, reason: "\(error)"))
                }
            }
        }
    }

    /// One command answered by one response.
    public func call(_ command: Command, timeout: Duration? = nil) async throws -> Response {
        let frames = try await exchange(command, timeout: timeout)
        guard case let .response(response)? = frames.first else {
            throw SessionError.unexpected(command: command.name, url: radioURL, got: frames.first?.name ?? "nothing")
        }
        return response
    }

    /// A command the firmware answers with a push and no response frame (SEND_TELEMETRY_REQ
    /// for the radio itself): the push `pick` accepts ends it; an error response still fails it.
    public func callAnsweredByPush<T: Sendable>(_ command: Command, timeout: Duration? = nil,
                                                _ pick: @escaping @Sendable (Push) -> T?) async throws -> T {
        let frames = try await exchange(command, timeout: timeout, answeredByPush: { pick($0) != nil })
        guard case let .push(push)? = frames.first, let value = pick(push) else {
            throw SessionError.unexpected(command: command.name, url: radioURL, got: frames.first?.name ?? "nothing")
        }
        return value
    }

    /// One command whose one answer `pick` accepts; any other answer is `unexpected`.
    public func expect<T>(_ command: Command, timeout: Duration? = nil, _ pick: (Response) -> T?) async throws -> T {
        let answer = try await call(command, timeout: timeout)
        guard let value = pick(answer) else {
            throw SessionError.unexpected(command: command.name, url: radioURL, got: RadioFrame.response(answer).name)
        }
        return value
    }

    /// A command answered by OK.
    public func expectOK(_ command: Command, timeout: Duration? = nil) async throws {
        _ = try await expect(command, timeout: timeout) { if case .ok = $0 { true } else { nil } }
    }

    /// What one received frame does to the command in flight.
    private enum Step {
        case none
        case stray(String)
        case late(Response)
        case end(Pending, Result<[RadioFrame], any Error>)
    }

    /// One frame from the link, on the link's thread or the reader task: a push reaches the
    /// subscribers; an answer goes to the command in flight.
    private nonisolated func received(_ bytes: [UInt8]) {
        let frame: RadioFrame
        do {
            frame = try RadioFrame(decoding: bytes)
        } catch let error as CodecError {
            let radioURL = radioURL
            let step = inflight.withLock { pending -> Step in
                guard let p = pending.take() else { return .stray("undecodable frame: \(error)") }
                return .end(p, .failure(SessionError.undecodable(command: p.command, url: radioURL, error)))
            }
            take(step)
            return
        } catch {
            return
        }
        if case let .push(push) = frame { report(.push(push)) }
        let radioURL = radioURL
        let step = inflight.withLock { pending -> Step in
            if case let .push(push) = frame {
                guard let p = pending, p.answeringPush?(push) == true else { return .none }
            }
            if case let .response(response) = frame, response.answersSyncNext, pending?.drainsMessage != true {
                // The answer to a SYNC_NEXT_MESSAGE that already timed out: the radio has taken the
                // message off its queue, so it is handed on to be kept, never to another command.
                if case .noMoreMessages = response { return .stray(frame.name) }
                return .late(response)
            }
            guard var p = pending.take() else { return .stray(frame.name) }
            if case let .response(.error(e)) = frame {
                return .end(p, .failure(SessionError.refused(command: p.command, url: radioURL, e)))
            }
            p.frames.append(frame)   // `p` holds the only reference: no copy of the frames so far
            if p.isComplete(p.frames) { return .end(p, .success(p.frames)) }
            pending = p
            return .none
        }
        take(step)
    }

    /// Does what `received` decided, outside the lock.
    private nonisolated func take(_ step: Step) {
        switch step {
        case .none: break
        case let .stray(name): report(.stray(name))
        case let .late(response): report(.lateMessage(response))
        case let .end(p, result): p.end(result)
        }
    }

    private nonisolated func finish(_ id: Int, throwing error: any Error) {
        inflight.withLock { pending in pending?.id == id ? pending.take() : nil }?.end(.failure(error))
    }

    nonisolated func failPending(_ reason: String) {
        let radioURL = radioURL
        inflight.withLock { $0.take() }.map { p in
            let command = p.command
            p.end(.failure(SessionError.linkClosed(command: command, url: radioURL, reason: reason)))
        }
    }

    /// Initialization can finish on its last answer just as the link goes: not ready then.
    func requireLink() throws {
        guard transport != nil else { throw SessionError.linkClosed(command: "initialization", url: radioURL, reason: "link ended") }
    }

    /// The link's frame stream ended: closed by us, or lost.
    private func linkEnded(_ ended: any Transport) {
        guard ended === transport else { return }   // an older link, already replaced
        failPending(ended.failure.map { "\($0)" } ?? "link ended")
        let wasUp = state == .ready
        transport = nil
        if closing || state == .reconnecting { return }
        if wasUp && reconnectPolicy.attempts > 0 {
            logger.warning("The link to the radio was lost; reconnecting.")
            startReconnecting()
        } else {
            set(.disconnected)
        }
    }
}

extension Response {
    /// Answers only SYNC_NEXT_MESSAGE sends (Docs/protocol.md §7.3).
    var answersSyncNext: Bool {
        switch self {
        case .contactMessage, .channelMessage, .channelData, .noMoreMessages: true
        default: false
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
