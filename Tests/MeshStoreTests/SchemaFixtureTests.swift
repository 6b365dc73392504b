import Foundation
import GRDB
import MeshportTestSupport
import Testing

@testable import MeshStore

/// Every named migration has a schema fixture (Fixtures/schema/NAME.sql): the schema that
/// migrating a new file up to NAME created when it shipped. A migration edited afterwards
/// creates another schema and fails here, as does a new migration without its fixture.
@Suite struct SchemaFixtureTests {
    @Test("each shipped migration still creates exactly the schema it shipped with", arguments: Migrations.names)
    func migrationMatchesItsFixture(_ name: String) throws {
        let dir = TempDir()
        let fresh = try DatabaseQueue(path: dir.path("fresh.db"))
        try Migrations.migrator.migrate(fresh, upTo: name)
        let created = try Self.schemaText(fresh)
        let fixture = "Tests/MeshStoreTests/Fixtures/schema/\(name).sql"
        guard let url = Bundle.module.url(forResource: "Fixtures/schema/\(name)", withExtension: "sql") else {
            Issue.record("""
                migration \(name) has no schema fixture. When it ships, save what it creates as \(fixture) \
                (between the lines):
                ----
                \(created)----
                """)
            return
        }
        let recorded = try String(contentsOf: url, encoding: .utf8)
        #expect(recorded == created, "migration \(name) no longer creates the schema in \(fixture); shipped migrations are never edited")
    }

    /// sqlite_master as text, one entry per block, in a stable order.
    static func schemaText(_ queue: DatabaseQueue) throws -> String {
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            return rows.map { row -> String in
                let type: String = row["type"], name: String = row["name"]
                let sql: String? = row["sql"]
                return "-- \(type) \(name)\n" + (sql.map { "\($0);\n" } ?? "-- (created by SQLite)\n")
            }.joined(separator: "\n")
        }
    }
}
