import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Serializes migrations between processes. GRDB's migrator reads which migrations are applied,
/// then applies each missing one in its own transaction, so two processes opening a new file at
/// once (`meshport serve` and `meshport info`) both try to create the first tables. The lock is
/// an flock on the folder holding the file, not on the file itself: closing any descriptor of
/// the database file would drop SQLite's own POSIX locks on it.
enum MigrationLock {
    /// Runs `body` while holding the lock; waits for another process's migrations to end.
    static func holding<T>(for path: String, _ body: () throws -> T) throws(StoreError) -> T {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.migration(path: path, reason: "cannot open its folder \(folder) to lock it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError.migration(path: path, reason: "cannot lock its folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.migration(path: path, reason: StoreError.reason(error))
        }
    }
}
