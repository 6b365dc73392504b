import Synchronization

/// When `meshport serve` counts as ready, and what its status line says. Ready once every
/// listener (HTTP, each companion port) is bound and each radio's first connection attempt has
/// ended, whether it connected or not: a radio that is off must not keep the service from
/// starting, so the status names the radios that are down instead. `changes` yields the
/// status line then, and again whenever it changes.
final class ServeReadiness: Sendable {
    private struct Radio {
        let id: String
        let url: String
        /// nil until the first attempt ended; then "" when connected, else why it is down.
        var problem: String?
    }

    private struct State {
        var listenersWaiting: Int
        var radios: [Radio]
        var lastStatus: String?
    }

    let changes: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let state: Mutex<State>

    init(listeners: Int, radios: [(id: String, url: String)]) {
        (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        state = Mutex(State(listenersWaiting: listeners, radios: radios.map { Radio(id: $0.id, url: $0.url) }))
    }

    /// A listener is bound.
    func listenerBound() { update { $0.listenersWaiting -= 1 } }

    /// A radio connected (`problem` nil) or is down, and why.
    func radio(_ id: String, problem: String?) {
        update { state in
            guard let index = state.radios.firstIndex(where: { $0.id == id }) else { return }
            state.radios[index].problem = problem ?? ""
        }
    }

    /// The status line for systemd (`systemctl status` shows it); nil while not ready.
    private static func status(_ state: State) -> String? {
        guard state.listenersWaiting <= 0, state.radios.allSatisfy({ $0.problem != nil }) else { return nil }
        let down = state.radios.filter { $0.problem?.isEmpty == false }
        let total = state.radios.count
        guard !down.isEmpty else { return total == 1 ? "The radio is connected." : "All \(total) radios are connected." }
        let which = down.map { "radio \($0.id) (\($0.url)): \($0.problem ?? "")" }.joined(separator: "; ")
        // One line: the protocol separates fields with newlines.
        return "\(total - down.count) of \(total) radios connected; down: \(which)".replacingOccurrences(of: "\n", with: " ")
    }

    private func update(_ change: (inout State) -> Void) {
        let status: String? = state.withLock { state in
            change(&state)
            guard let status = Self.status(state), status != state.lastStatus else { return nil }
            state.lastStatus = status
            return status
        }
        if let status { continuation.yield(status) }
    }
}
