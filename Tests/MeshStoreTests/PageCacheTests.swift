import Foundation
import GRDB
import MeshportTestSupport
import Testing

@testable import MeshStore

/// SQLite's page cache per connection: the writer's large, every reader's small, so a server
/// that runs for months with a growing store holds a bounded amount (MeshStore.swift, `open`).
@Suite struct PageCacheTests {
    /// `PRAGMA cache_size` in KiB (SQLite gives it negative when set in KiB).
    private static func cacheKiB(_ db: Database) throws -> Int { -(try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0) }

    @Test func theWriterKeepsALargeCacheAndEachReaderASmallOne() async throws {
        let dir = TempDir()
        let store = try MeshStore.open(at: dir.path("cache.db"))
        let database = store.database
        #expect(try await database.writer.write { try Self.cacheKiB($0) } == MeshStore.writerCacheKiB)
        // Readers of the pool, several at once so more than one connection is made.
        let readers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try await database.writer.read { db in
                    Thread.sleep(forTimeInterval: 0.05)
                    return try Self.cacheKiB(db)
                } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(readers == Array(repeating: MeshStore.readerCacheKiB, count: 4))
        let lookups = try #require(database.lookups)
        #expect(try await lookups.read { try Self.cacheKiB($0) } == MeshStore.readerCacheKiB)
        #expect(MeshStore.readerCacheKiB < MeshStore.writerCacheKiB)
        _ = try await store.close()
    }

    @Test func aStoreOpenedReadOnlyReadsWithTheSmallCache() async throws {
        let dir = TempDir()
        _ = try await MeshStore.open(at: dir.path("cache.db")).close()
        let store = try MeshStore.open(at: dir.path("cache.db"), options: StoreOptions(mode: .readOnly))
        #expect(try await store.database.writer.read { try Self.cacheKiB($0) } == MeshStore.readerCacheKiB)
        _ = try await store.close()
    }
}
