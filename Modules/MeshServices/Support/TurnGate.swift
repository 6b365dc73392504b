/// First come, first served: one holder at a time, the rest waiting in order. A session
/// holds it for each command and its answer; remote requests hold it for the request and the
/// wait for its reply, because the radio tracks one at a time (Docs/protocol.md §7.5).
actor TurnGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
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
}
