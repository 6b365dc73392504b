import Foundation
import MeshportTestSupport
import GRDB
import MeshCodec
import Testing

@testable import MeshStore

@Suite struct MaintenanceTests {
    let alice = Fixture.key(0x11)

    func filled(_ dir: TempDir, messages: Int = 10) async throws -> RadioID {
        let store = try MeshStore.open(at: dir.path())
        let radio = try await store.writer.register(Fixture.radio()).id
        try await store.writer.saveContacts(radio, [Fixture.contact(alice, name: "Alice")])
        try await store.writer.saveIncoming(radio, (0..<messages).map { Fixture.dm(from: alice, "message \($0)", at: Double($0), ts: UInt32($0)) })
        try await store.close()
        return radio
    }

    @Test("WAL journal and foreign keys are on")
    func connectionSettings() async throws {
        let t = try TestStore()
        let (mode, fk) = try await t.store.database.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(mode == "wal" && fk == true)
        await #expect(throws: DatabaseError.self) {
            try await t.store.database.writer.write { db in
                try db.execute(sql: "INSERT INTO positions (radioId, contactId, latitudeE6, longitudeE6, source, recordedAt, createdAt, updatedAt) VALUES (1, 999, 0, 0, 0, 0, 0, 0)")
            }
        }
    }

    @Test("read-only: reads work, every write is refused with a typed error, the file is untouched")
    func readOnlyMode() async throws {
        let dir = TempDir()
        let radio = try await filled(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.path()))
        let store = try MeshStore.open(at: dir.path(), options: StoreOptions(mode: .readOnly))
        #expect(store.mode == .readOnly)
        #expect(try store.reader.timeline(radio, .direct(alice)).messages.count == 10)
        #expect(try store.reader.search(radio, SearchQuery("message")).count == 10)
        #expect(try store.integrityCheck().isOK)
        await #expect(throws: StoreError.readOnly(what: "1 received message(s) of radio \(radio)")) {
            try await store.writer.saveIncoming(radio, [Fixture.dm(from: alice, "nope")])
        }
        await #expect(throws: StoreError.self) { try await store.writer.register(Fixture.radio(0xC0)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path())) == before)
        #expect(throws: StoreError.open(path: dir.path("missing.db"), reason: "no such file")) {
            try MeshStore.open(at: dir.path("missing.db"), options: StoreOptions(mode: .readOnly))
        }
    }

    @Test("errors are reported to the log hook with what was attempted")
    func errorHook() async throws {
        let dir = TempDir()
        let radio = try await filled(dir)
        let logged = LogBox()
        let store = try MeshStore.open(at: dir.path(), options: StoreOptions(mode: .readOnly, onError: { logged.append($0) }))
        await #expect(throws: StoreError.self) { try await store.writer.markRead(radio, .direct(alice)) }
        #expect(logged.errors == [.readOnly(what: "read state of \(Conversation.direct(alice))")])
    }

    @Test("integrity check reports a damaged file instead of passing it")
    func integrityDetectsDamage() async throws {
        let dir = TempDir()
        _ = try await filled(dir, messages: 2_000)
        let fresh = try MeshStore.open(at: dir.path())
        let report = try fresh.integrityCheck()
        #expect(report.isOK && report.integrity == ["ok"] && report.pendingMigrations.isEmpty && report.pageCount > 10)
        try await fresh.close()

        // Overwrite the middle third of the file with garbage.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.path()))
        try handle.seek(toOffset: UInt64(report.pageSize * (report.pageCount / 3)))
        try handle.write(contentsOf: Data((0..<(report.pageSize * report.pageCount / 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        try handle.close()
        do {
            let damaged = try MeshStore.open(at: dir.path(), options: StoreOptions(mode: .readOnly))
            #expect(!(try damaged.integrityCheck().isOK))
        } catch {
            // Damage SQLite notices while opening is reported just as well.
            #expect(error.description.contains(dir.path()) || error.description.contains("integrity"))
        }
    }

    @Test("online backup: a consistent copy while writes go on; an existing file is not overwritten unless asked")
    func onlineBackup() async throws {
        let dir = TempDir()
        let radio = try await filled(dir, messages: 500)
        let store = try MeshStore.open(at: dir.path())
        let writer = Task {
            for n in 0..<50 {
                try await store.writer.saveIncoming(radio, [Fixture.dm(from: alice, "during backup \(n)", at: Double(1_000 + n), ts: UInt32(1_000 + n))])
            }
        }
        let progress = LogBox()
        let report = try store.backup(to: dir.path("copy.db")) { p in progress.note(p) }
        try await writer.value
        #expect(report.pages > 0 && report.bytes == report.pages * 4096)
        #expect(progress.lastProgress?.done == progress.lastProgress?.total)
        let copy = try MeshStore.open(at: dir.path("copy.db"), options: StoreOptions(mode: .readOnly))
        #expect(try copy.integrityCheck().isOK)
        let copied = try copy.reader.rowCounts(radio)["messages"] ?? 0
        #expect(copied >= 500 && copied <= 550)
        #expect(try copy.reader.search(radio, SearchQuery("message")).count == 20)

        #expect(throws: StoreError.backup(destination: dir.path("copy.db"), reason: "the file exists (pass overwrite to replace it)")) {
            try store.backup(to: dir.path("copy.db"))
        }
        let again = try store.backup(to: dir.path("copy.db"), overwrite: true)
        #expect(again.pages >= report.pages)
        try await store.close()
    }

    @Test("hot queries use their indexes, never a table scan")
    func queryPlans() async throws {
        let t = try TestStore()
        let plans: [(String, String, StatementArguments)] = [
            ("timeline (contact)", MessageRecord.selectSQL + " WHERE m.radioId = ? AND m.contactId = ? AND m.timestamp > ? AND (m.timestamp, m.id) < (?, ?) ORDER BY m.timestamp DESC, m.id DESC LIMIT 51", [1, 1, 0, 9, 9]),
            ("timeline (channel)", MessageRecord.selectSQL + " WHERE m.radioId = ? AND m.channelId = ? AND m.timestamp > ? AND (m.timestamp, m.id) < (?, ?) ORDER BY m.timestamp DESC, m.id DESC LIMIT 51", [1, 1, 0, 9, 9]),
            ("prefix lookup", "SELECT * FROM contacts WHERE radioId = ? AND publicKey >= ? AND publicKey < ? ORDER BY publicKey LIMIT 2", [1, Data([1]), Data([2])]),
            ("unread counts", ConversationQueries.unreadSQL, [1, 1]),
            ("contact list", ContactQueries.listSQL, [1, 50, 0]),
            ("ack lookup", MessageRecord.selectSQL + " WHERE m.radioId = ? AND m.ackCode = ?", [1, 5]),
            ("dedupe lookup", MessageWrites.duplicateSQL, [1, 5, 5]),
            ("search ranking", MessageSearch.rankSQL, ["\"x\"", 0, 1, 20]),
            ("search hits", MessageSearch.hitsSQL, ["\"x\"", 1, 9, "[1,9]"]),
        ]
        for (name, sql, args) in plans {
            let plan = try await t.store.database.writer.read { db in
                try String.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: args).joined(separator: "\n")
            }
            for table in ["messages", "contacts", "channels"] {
                #expect(!plan.contains("SCAN \(table)") && !plan.contains("SCAN m\n") && !plan.hasSuffix("SCAN m"), "\(name):\n\(plan)")
            }
            #expect(!plan.contains("USE TEMP B-TREE FOR ORDER BY") || name.hasPrefix("search"), "\(name):\n\(plan)")
        }
    }
}

/// Collects what callbacks report, from any thread.
final class LogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storedErrors: [StoreError] = []
    private var progress: [StoreProgress] = []

    func append(_ e: StoreError) { lock.withLock { storedErrors.append(e) } }
    func note(_ p: StoreProgress) { lock.withLock { progress.append(p) } }
    var errors: [StoreError] { lock.withLock { storedErrors } }
    var lastProgress: StoreProgress? { lock.withLock { progress.last } }
}
