import Synchronization

/// Fans one sequence of events out to every subscriber, each receiving all events from its
/// subscription on, in order. Services emit; front ends subscribe.
public final class EventHub<Event: Sendable>: Sendable {
    private struct Subscribers {
        var sinks: [Int: AsyncStream<Event>.Continuation] = [:] {
            didSet { all = Array(sinks.values) }
        }
        /// `sinks`' values, made when they change rather than at every emit (a gateway emits
        /// one event per heard packet).
        var all: [AsyncStream<Event>.Continuation] = []
        var next = 0
    }

    private let subscribers = Mutex(Subscribers())

    public init() {}

    /// Events from now on until the subscriber stops iterating.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, sink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let id = subscribers.withLock { s in
            s.next += 1
            s.sinks[s.next] = sink
            return s.next
        }
        sink.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Subscriptions still open. Each keeps the events its reader has not taken yet, so one
    /// nobody reads grows with every event.
    public var subscriberCount: Int { subscribers.withLock { $0.sinks.count } }

    /// Under the lock: events emitted on several threads at once (a session's link thread and
    /// its actor) reach every subscriber in the same order.
    public func emit(_ event: Event) {
        subscribers.withLock { s in
            for sink in s.all { sink.yield(event) }
        }
    }

    private func remove(_ id: Int) { _ = subscribers.withLock { $0.sinks.removeValue(forKey: id) } }
}
