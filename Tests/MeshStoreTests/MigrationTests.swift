import Foundation
import MeshportTestSupport
import GRDB
import MeshCodec
import Testing

@testable import MeshStore

/// Databases written by earlier schemas (SQL fixtures) open, migrate, and keep every row.
@Suite struct MigrationTests {
    static let radio = RadioID(publicKey: PublicKey(Array(0xA0...0xBF))!)
    static let alice = Fixture.key(0x11)
    static let bob = Fixture.key(0x22, last: 0x01)
    static let room = Fixture.key(0x33)

    @Test("a shipped migration is never edited: it still creates exactly the fixture's schema", arguments: ["v1-initial", "v2-room-messages"])
    func shippedSchemasUnchanged(_ name: String) throws {
        let dir = TempDir()
        try Fixture.load(name, into: dir.path("fixture.db"))
        let fresh = try DatabaseQueue(path: dir.path("fresh.db"))
        try Migrations.migrator.migrate(fresh, upTo: name)
        #expect(try schema(DatabaseQueue(path: dir.path("fixture.db"))) == schema(fresh))
    }

    @Test("every earlier schema migrates to the current one with nothing lost",
          arguments: ["v1-initial", "v2-room-messages", "v3-message-search"])
    func migratesWithNothingLost(_ name: String) async throws {
        let dir = TempDir()
        // v3 has no SQL fixture (a dump of an FTS5 table is not plain SQL): the shipped v3
        // migration builds it from v2's rows.
        try Fixture.load(name == "v3-message-search" ? "v2-room-messages" : name, into: dir.path())
        if name == "v3-message-search" {
            let queue = try DatabaseQueue(path: dir.path())
            try Migrations.migrator.migrate(queue, upTo: name)
            try queue.close()
        }
        let before = try rowCounts(DatabaseQueue(path: dir.path()))
        let store = try MeshStore.open(at: dir.path())
        let report = try store.integrityCheck()
        #expect(report.isOK)
        #expect(report.appliedMigrations == Migrations.names)
        #expect(report.pendingMigrations.isEmpty)
        let reader = store.reader
        let r = Self.radio

        // Rows: every table keeps its count.
        let counts = try reader.rowCounts(r)
        for (table, count) in before { #expect(counts[table] == count, "\(table)") }

        // Values: the radio, contacts, channels and messages read back field by field.
        let radio = try #require(try reader.radio(r))
        #expect(radio.name == "Base station")
        #expect(radio.selfInfo.radio == RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5))
        #expect(radio.contactsLastmod == 1_760_000_100)
        #expect(radio.lastConnectedAt == Date(storeMillis: 1_760_000_005_000))
        let alice = try #require(try reader.contact(r, key: Self.alice))
        #expect(alice.name == "Alice" && alice.isFavourite && alice.unreadCount == 1 && alice.messageCount == 2)
        #expect(alice.contact.outPath == Path(length: PathLength(raw: 0x41), bytes: [0xAB, 0xCD]))
        #expect(alice.contact.position == Coordinates(latitudeE6: 52_500_000, longitudeE6: 13_300_000))
        #expect(try reader.contact(r, key: Self.bob)?.isArchived == true)
        #expect(try reader.channels(r).map(\.kind) == [.public, .hashtag])

        let dm = try reader.timeline(r, .direct(Self.alice)).messages
        #expect(dm.map(\.text) == ["Fine, thanks! 東京に行く", "Привет, как дела? 👋"])
        #expect(dm[0].status == .delivered && dm[0].ackCode == AckCode(0xDEAD_BEEF) && dm[0].roundTripMs == 1840)
        #expect(dm[1].senderPrefix == Self.alice.prefix(6) && dm[1].snrX4 == 12)
        // v5: messages from before it have no failure reason.
        #expect(dm.allSatisfy { $0.failureReason == nil })
        let channel = try reader.timeline(r, .channel(0)).messages
        #expect(channel.map(\.senderName) == ["Carol"])
        #expect(try reader.timeline(r, .channel(1)).messages.first?.heardRepeats == 3)
        // Bob's thread was archived (soft-deleted) before the migration and stays hidden.
        #expect(try reader.timeline(r, .direct(Self.bob)).messages.isEmpty)
        #expect(try reader.unresolvedMessages(r).map(\.text) == ["who is this?"])
        #expect(try reader.positions(r, node: Self.alice).count == 2)
        let telemetry = try reader.telemetry(r, node: Self.bob)
        #expect(telemetry.map(\.record.values) == [[52.5, 13.4, 120.0], [21.5]])
        #expect(try reader.stats(r, node: nil).first?.batteryMillivolts == 4100)
        #expect(try reader.stats(r, node: Self.bob).first?.receiveErrors == 3)

        // Old messages are searchable after v3 built the index, CJK and emoji included.
        #expect(try reader.search(r, SearchQuery("東京")).texts == ["Fine, thanks! 東京に行く"])
        #expect(try reader.search(r, SearchQuery("👋")).texts == ["Привет, как дела? 👋"])
        #expect(try reader.search(r, SearchQuery("hill")).texts == ["mesh test from the hill"])

        // A message stored by the old release is still recognised when the radio sends it again.
        let again = Fixture.dm(from: Self.alice, "Привет, как дела? 👋", at: 100, ts: 1_760_000_200)
        #expect(try await store.writer.saveIncoming(r, [again]).first?.isDuplicate == true)

        if name != "v1-initial" {
            let sessions = try reader.savedLogins(r)
            #expect(sessions.map(\.node) == [Self.room] && sessions.first?.permission == 2 && sessions.first?.isConnected == true)
            #expect(try reader.roomMessages(r, room: Self.room).map(\.text) == ["второй пост 📮", "first post"])
        }
        try await store.close()
    }

    @Test("read-only open of an earlier schema refuses to guess and names the missing migrations")
    func readOnlyOutdated() throws {
        let dir = TempDir()
        try Fixture.load("v1-initial", into: dir.path())
        #expect(throws: StoreError.schemaOutdated(path: dir.path(), missing: ["v2-room-messages", "v3-message-search", "v4-dedupe-by-time", "v5-contacts-removed", "v6-message-failure", "v7-conversation-activity", "v8-packet-log"])) {
            try MeshStore.open(at: dir.path(), options: StoreOptions(mode: .readOnly))
        }
    }

    @Test("a file from a newer release is refused, not migrated")
    func newerSchemaRefused() throws {
        let dir = TempDir()
        try Fixture.load("v2-room-messages", into: dir.path())
        let queue = try DatabaseQueue(path: dir.path())
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-future')") }
        try queue.close()
        #expect(throws: StoreError.schemaTooNew(path: dir.path(), unknown: ["v9-future"])) { try MeshStore.open(at: dir.path()) }
    }

    @Test("a file with a history is copied before pending migrations run; a new or current file is not")
    func copiedBeforeMigrating() async throws {
        let dir = TempDir()
        try Fixture.load("v2-room-messages", into: dir.path())
        let before = try rowCounts(DatabaseQueue(path: dir.path()))
        let store = try MeshStore.open(at: dir.path())
        try await store.close()

        let copy = Migrations.backupPath(of: dir.path(), before: "v3-message-search")
        #expect(copy == dir.path() + ".before-v3-message-search")
        let saved = try DatabaseQueue(path: copy)
        let applied = try await saved.read { db in try Migrations.migrator.appliedIdentifiers(db) }
        #expect(applied == ["v1-initial", "v2-room-messages"])
        #expect(try rowCounts(saved) == before)
        try saved.close()

        // Opened again at the current schema: nothing to migrate, no further copy.
        try await MeshStore.open(at: dir.path()).close()
        let fresh = dir.path("fresh.db")
        try await MeshStore.open(at: fresh).close()
        let copies = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".before-") }
        #expect(copies == ["store.db.before-v3-message-search"])
    }

    private func schema(_ db: DatabaseQueue) throws -> [String] {
        try db.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
        }
    }

    private func rowCounts(_ queue: DatabaseQueue) throws -> [String: Int] {
        try queue.read { db in
            var out: [String: Int] = [:]
            for table in ["contacts", "channels", "messages", "positions", "telemetry_samples", "stats_samples"] {
                out[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")
            }
            for table in ["remote_sessions", "room_messages"] where try db.tableExists(table) {
                out[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")
            }
            return out
        }
    }
}
