import GRDB

/// Inserts a batch of received messages with one statement.
///
/// FTS5 writes its pending index data out as a new segment whenever a statement that holds a
/// statement journal ends, and an INSERT that fires the search trigger holds one. Inserted one
/// by one, every message became a one-document segment that automerge then merged again and
/// again (about 60% of ingest time). Staged in a temporary table first, a batch reaches
/// `messages` through one INSERT ... SELECT: one segment per batch, triggers unchanged.
enum MessageStaging {
    static let table = "temp.message_staging"

    /// The connection's staging table, created on first use (temporary tables are per connection).
    static func prepare(_ db: Database) throws {
        let exists = try Bool.fetchOne(cached: db, sql: "SELECT count(*) > 0 FROM temp.sqlite_master WHERE name = 'message_staging'") ?? false
        guard !exists else { return }
        // No types or constraints: values keep what was bound; `messages` checks them on the copy.
        try db.execute(sql: "CREATE TEMP TABLE message_staging (\(MessageRecord.columns.joined(separator: ", ")))")
    }

    /// Copies the staged rows, in staging order, into `messages` and empties the staging table.
    /// A row whose de-duplication key is already stored (or staged before it) is skipped.
    /// The copy runs through GRDB, so observers of `messages` see the batch at commit.
    /// - Returns: the new rows' ids by (senderTimestamp, dedupeKey).
    static func insertStaged(_ db: Database) throws -> [Key: Int64] {
        let columns = MessageRecord.columns.joined(separator: ", ")
        var inserted: [Key: Int64] = [:]
        // `WHERE true` keeps the parser from reading ON CONFLICT as a join constraint.
        let rows = try Row.fetchCursor(cached: db, sql: """
            INSERT INTO messages (\(columns)) SELECT \(columns) FROM \(table) WHERE true ORDER BY rowid \
            ON CONFLICT(radioId, senderTimestamp, dedupeKey) DO NOTHING RETURNING id, senderTimestamp, dedupeKey
            """)
        while let row = try rows.next() {
            let key = Key(senderTimestamp: try row.decode(forColumn: "senderTimestamp"), dedupeKey: try row.decode(forColumn: "dedupeKey"))
            inserted[key] = try row.decode(forColumn: "id")
        }
        try db.execute(cached: "DELETE FROM \(table)")
        return inserted
    }

    /// What the de-duplication index holds for a message (besides its radio).
    struct Key: Hashable {
        let senderTimestamp: Int64
        let dedupeKey: Int64
    }
}
