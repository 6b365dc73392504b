import Foundation   // Thread, and the C library (pthread, clock_gettime)

/// Time limits kept by one thread for the whole process: every session's command limit.
/// A timer task per command (started, asleep, then cancelled by the answer) woke threads
/// three times in each round trip, a large part of the client's CPU on a busy link
/// (Tools/Benchmarks/SessionBench/README.md). Here setting a limit is a lock and a heap
/// insertion, cancelling it a lock and a table removal; the thread wakes when the earliest
/// limit is due, or when a new limit comes before every other one.
final class Deadlines: @unchecked Sendable {   // every var is read and written under `lock`
    static let shared = Deadlines()

    struct Token: Hashable, Sendable { fileprivate let id: UInt64 }

    private struct Entry {
        let due: UInt64
        let id: UInt64
        func before(_ other: Entry) -> Bool { (due, id) < (other.due, other.id) }
    }

    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>
    /// By `due` (nanoseconds of CLOCK_MONOTONIC), earliest first; a cancelled limit stays until
    /// it reaches the top or the heap is rebuilt, its action already gone from `actions`.
    private var heap: [Entry] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var lastID: UInt64 = 0

    /// Starts its thread, which holds it for the life of the process.
    init() {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        wake = .allocate(capacity: 1)
        pthread_cond_init(wake, &attributes)
        pthread_condattr_destroy(&attributes)
        let thread = Thread { self.run() }
        thread.name = "meshport.deadlines"
        thread.start()
    }

    /// Runs `action` on the deadlines' thread once `limit` has passed, unless cancelled
    /// before. It must be short (hand the work to a task): the limits after it wait for it.
    func schedule(after limit: Duration, _ action: @escaping @Sendable () -> Void) -> Token {
        let due = Self.now() &+ limit.clampedNanoseconds
        return locked {
            lastID += 1
            actions[lastID] = action
            push(Entry(due: due, id: lastID))
            if heap[0].id == lastID { pthread_cond_signal(wake) }
            return Token(id: lastID)
        }
    }

    /// The limit's action will not run (unless it is running already).
    func cancel(_ token: Token) {
        locked {
            guard actions.removeValue(forKey: token.id) != nil else { return }
            // Cancelled limits would otherwise stay until they are due: bounded to a few times the live ones.
            if heap.count > 64 && heap.count > 4 * actions.count { rebuild() }
        }
    }

    /// Limits set and not yet run or cancelled.
    var pending: Int { locked { actions.count } }

    /// Limits held, cancelled ones not yet dropped included: at most 64 or four times `pending`.
    var kept: Int { locked { heap.count } }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    private func run() {
        pthread_mutex_lock(lock)
        while true {
            while let top = heap.first, actions[top.id] == nil { pop() }
            guard let top = heap.first else {
                pthread_cond_wait(wake, lock)
                continue
            }
            if top.due <= Self.now() {
                pop()
                guard let action = actions.removeValue(forKey: top.id) else { continue }
                pthread_mutex_unlock(lock)
                action()
                pthread_mutex_lock(lock)
            } else {
                var until = timespec(tv_sec: Int(top.due / 1_000_000_000), tv_nsec: Int(top.due % 1_000_000_000))
                pthread_cond_timedwait(wake, lock, &until)
            }
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    // MARK: The heap

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].before(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count && heap[left].before(heap[first]) { first = left }
            if right < heap.count && heap[right].before(heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    /// Keeps only the live limits. The thread may then wake once for nothing (it slept until
    /// a cancelled one's time) and sleeps again.
    private func rebuild() {
        heap.removeAll { actions[$0.id] == nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }
}

extension Duration {
    /// Nanoseconds: 0 for a negative duration, a century at most (a limit never reached).
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        let century: Int64 = 100 * 365 * 86_400
        guard seconds >= 0 else { return 0 }
        guard seconds < century else { return UInt64(century) * 1_000_000_000 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
