import MeshCodec
import MeshTransport

/// Request/answer over a transport with one request in flight, the rest waiting in order:
/// each answer reaches the caller that asked. Pushes (codes 0x80 and up) are kept apart.
/// A caller cancelled while waiting leaves its answer to be discarded when it arrives.
actor LinkClient {
    let transport: any Transport
    private var answers: [[UInt8]] = []
    private var pushes: [[UInt8]] = []
    private var waiter: CheckedContinuation<Void, Never>?
    private var abandoned = 0
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []
    private var reader: Task<Void, Never>?
    private(set) var finished = false

    init(_ transport: any Transport) {
        self.transport = transport
    }

    func start() {
        let frames = transport.frames
        reader = Task { [weak self] in
            for await f in frames { await self?.deliver(f) }
            await self?.finish()
        }
    }

    func stop() { reader?.cancel() }

    private func deliver(_ frame: [UInt8]) {
        if let code = frame.first, code >= 0x80 {
            pushes.append(frame)
        } else if abandoned > 0 {
            abandoned -= 1
        } else {
            answers.append(frame)
        }
        wake()
    }

    private func finish() {
        finished = true
        wake()
    }

    private func wake() {
        waiter?.resume()
        waiter = nil
    }

    /// Sends `frame` and returns the next answer, within `seconds`.
    func call(_ frame: [UInt8], seconds: Double = 5) async throws -> [UInt8] {
        await acquire()
        defer { release() }
        try await transport.send(frame)
        return try await nextAnswer(for: frame, seconds: seconds)
    }

    /// Sends without waiting (bursts); answers are read with `nextAnswer`.
    func sendOnly(_ frame: [UInt8]) async throws { try await transport.send(frame) }

    func nextAnswer(for frame: [UInt8], seconds: Double = 5) async throws -> [UInt8] {
        try await next(push: false, what: "the answer to \(describe(frame))", seconds: seconds)
    }

    func nextPush(seconds: Double = 5) async throws -> [UInt8] {
        try await next(push: true, what: "a push", seconds: seconds)
    }

    private func next(push: Bool, what: String, seconds: Double) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while (push ? pushes : answers).isEmpty {
            if finished { throw TransportError.linkLost(transport.url.text, reason: "link ended while waiting for \(what)") }
            if ContinuousClock.now >= deadline { throw TransportError.timeout(transport.url.text, operation: what, seconds: seconds) }
            if Task.isCancelled {
                abandoned += 1
                throw CancellationError()
            }
            await waitForFrame(until: deadline)
        }
        return push ? pushes.removeFirst() : answers.removeFirst()
    }

    /// Waits until a frame arrives, the link ends, or the deadline passes.
    private func waitForFrame(until deadline: ContinuousClock.Instant) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)   // cancelled when a frame came first
            await self?.wake()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter = $0 }
        } onCancel: {
            Task { await self.wake() }
        }
        timer.cancel()
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func release() {
        if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
    }

    private func describe(_ frame: [UInt8]) -> String {
        guard let code = frame.first else { return "an empty frame" }
        return CommandCode(rawValue: code)?.firmwareName ?? "frame 0x\(Hex.encode([code]))"
    }
}
