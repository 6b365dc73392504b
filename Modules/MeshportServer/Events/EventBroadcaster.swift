import Synchronization

/// Fans encoded events out to WebSocket clients, each with a buffer of its own of at most
/// `capacity` events. A client that falls that far behind is not waited for, and nothing is
/// silently skipped: its stream ends marked `overflowed`, the server closes its WebSocket
/// (1013, "try again later"), and the client reconnects and reloads what it shows.
package final class EventBroadcaster: Sendable {
    struct Subscription: Sendable {
        let id: Int
        let events: AsyncStream<String>
        /// Yields once if the client falls `capacity` behind, then ends; ends without yielding
        /// when the subscription ends otherwise. Lets the connection be dropped even while a
        /// write to a client that reads nothing is stuck.
        let overflow: AsyncStream<Void>
        private let owner: EventBroadcaster

        init(id: Int, events: AsyncStream<String>, overflow: AsyncStream<Void>, owner: EventBroadcaster) {
            self.id = id
            self.events = events
            self.overflow = overflow
            self.owner = owner
        }

        /// True once the stream ended because the client fell `capacity` events behind.
        var overflowed: Bool { owner.state.withLock { $0.overflowed.contains(id) } }

        func cancel() { owner.remove(id) }
    }

    private struct Subscriber {
        let sink: AsyncStream<String>.Continuation
        let overflow: AsyncStream<Void>.Continuation

        func finish() {
            sink.finish()
            overflow.finish()
        }
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var overflowed: Set<Int> = []
        var next = 0
        var dropped = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        precondition(capacity > 0, "an event buffer holds at least one event")
        self.capacity = capacity
    }

    func subscribe() -> Subscription {
        let (stream, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(capacity))
        let (overflow, overflowSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingOldest(1))
        let id = state.withLock { s in
            s.next += 1
            s.subscribers[s.next] = Subscriber(sink: sink, overflow: overflowSink)
            return s.next
        }
        sink.onTermination = { [weak self] _ in self?.remove(id, keepOverflow: true) }
        return Subscription(id: id, events: stream, overflow: overflow, owner: self)
    }

    /// Hands `text` to every subscriber; those whose buffer is full are ended.
    package func publish(_ text: String) {
        let sinks = state.withLock { s in s.subscribers.map { ($0.key, $0.value) } }
        for (id, subscriber) in sinks {
            if case .dropped = subscriber.sink.yield(text) {
                let first = state.withLock { s in
                    guard s.subscribers.removeValue(forKey: id) != nil else { return false }
                    s.overflowed.insert(id)
                    s.dropped += 1
                    return true
                }
                guard first else { continue }
                subscriber.overflow.yield()
                subscriber.finish()
            }
        }
    }

    private func remove(_ id: Int, keepOverflow: Bool = false) {
        let sink = state.withLock { s in
            if !keepOverflow { s.overflowed.remove(id) }
            return s.subscribers.removeValue(forKey: id)
        }
        sink?.finish()
    }

    /// Forgets the overflow mark once the connection is closed.
    func release(_ id: Int) { state.withLock { _ = $0.overflowed.remove(id) } }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }
    /// Clients closed for falling behind.
    var droppedCount: Int { state.withLock { $0.dropped } }

    /// Ends every stream (shutdown): each client's connection then closes normally.
    func finishAll() {
        let sinks = state.withLock { s in
            defer { s.subscribers.removeAll() }
            return Array(s.subscribers.values)
        }
        for subscriber in sinks { subscriber.finish() }
    }
}
