import Foundation

/// Fans one sequence of events out to every subscriber, each receiving all events from its
/// subscription on, in order. Services emit; front ends subscribe.
public final class EventHub<Event: Sendable>: Sendable {
    private let state = Mutex()

    public init() {}

    /// Events from now on until the subscriber stops iterating.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, sink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let id = state.add(sink)
        sink.onTermination = { [weak self] _ in self?.state.remove(id) }
        return stream
    }

    public func emit(_ event: Event) {
        for sink in state.sinks() { sink.yield(event) }
    }

    private final class Mutex: @unchecked Sendable {
        private let lock = NSLock()
        private var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        private var next = 0

        func add(_ sink: AsyncStream<Event>.Continuation) -> Int {
            lock.withLock {
                next += 1
                subscribers[next] = sink
                return next
            }
        }

        func remove(_ id: Int) { _ = lock.withLock { subscribers.removeValue(forKey: id) } }
        func sinks() -> [AsyncStream<Event>.Continuation] { lock.withLock { Array(subscribers.values) } }
    }
}
