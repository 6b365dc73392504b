import Foundation

/// A lock for test fixtures' shared state.
final class NSLockLike: @unchecked Sendable {
    private let lock = NSLock()
    func with<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
