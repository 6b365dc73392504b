import Foundation
import MeshportTestSupport
import Testing

@testable import MeshRegion

/// Migrations from an empty database, and one schema fixture per migration
/// (Tests/Fixtures/region-schema/NAME.sql): the schema `pg_dump --schema-only` shows after
/// it. A shipped migration edited afterwards creates another schema and fails here, as does a
/// new migration without its fixture.
@Suite struct RegionSchemaTests {
    @Test("migrating an empty database applies every migration once, and again applies none")
    func migrateFromEmpty() async throws {
        let db = try await RegionDatabase.make(migrated: false)
        try await db.store.migrate()
        try await db.store.migrate()
        #expect(try await db.column("SELECT name FROM region_migrations ORDER BY applied_at, name", as: String.self) == RegionMigrations.names)
        #expect(db.logged.all == RegionMigrations.names.map { "Region schema: applied migration \($0)." })
        #expect(try await db.count("observations") == 0)
    }

    @Test("a database migrated by a newer Meshport is refused, naming the unknown migration")
    func newerSchema() async throws {
        let db = try await RegionDatabase.make()
        _ = try await db.withConnection { try await $0.query("INSERT INTO region_migrations (name) VALUES ('v99-future')", logger: quiet) }
        await #expect(throws: RegionStoreError.schemaTooNew(unknown: ["v99-future"])) {
            try await db.store.migrate()
        }
    }

    @Test("each shipped migration still creates exactly the schema it shipped with")
    func migrationsMatchTheirFixtures() async throws {
        let server = try await PostgresProcess()
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/region-schema")
        for name in RegionMigrations.names {
            let db = try await RegionDatabase.make(on: server, migrated: false)
            try await db.store.migrate(upTo: name)
            let created = Self.normalised(try await server.schemaDump(database: db.name))
            let fixture = fixtures.appendingPathComponent("\(name).sql")
            guard FileManager.default.fileExists(atPath: fixture.path) else {
                Issue.record("""
                    migration \(name) has no schema fixture. When it ships, save what it creates as \
                    Tests/Fixtures/region-schema/\(name).sql (between the lines):
                    ----
                    \(created)----
                    """)
                continue
            }
            let recorded = try String(contentsOf: fixture, encoding: .utf8)
            #expect(recorded == created, "migration \(name) no longer creates the schema in \(fixture.path); shipped migrations are never edited")
        }
    }

    /// pg_dump's text without what differs between runs and versions of the dump: comments,
    /// session settings, the `\restrict` lines with their random key, runs of blank lines.
    static func normalised(_ dump: String) -> String {
        var lines: [String] = []
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("--") || line.hasPrefix("SET ") || line.hasPrefix("SELECT pg_catalog.set_config") || line.hasPrefix("\\restrict ")
                || line.hasPrefix("\\unrestrict ") {
                continue
            }
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}
