import Foundation
import GRDB

/// FTS5 search over messages: bm25 ranking (the body weighs twice the sender name),
/// snippets with the matches marked, archived messages left out.
///
/// Ranking is exact within a window of the newest messages, widened fourfold until it holds
/// `limit` hits or the whole history: bm25 costs a few microseconds per matching row, so a
/// word in one message of ten would otherwise rank 50,000 rows of a 500,000-message history
/// (~80 ms) to show 20. A rare word reaches the full history in a few cheap passes.
enum MessageSearch {
    // Private-use characters mark matches in the snippet: they cannot clash with brackets or
    // markup a person typed.
    static let open: Unicode.Scalar = "\u{E000}"
    static let close: Unicode.Scalar = "\u{E001}"
    /// Messages (by row id) in the first window.
    static let window: Int64 = 20_000

    /// Candidates ranked inside the window; the best `limit` are kept.
    static let rankSQL = """
        SELECT message_fts.rowid AS id, bm25(message_fts, 1.0, 0.5) AS score
        FROM message_fts JOIN messages m ON m.id = message_fts.rowid
        LEFT JOIN contacts c ON c.id = m.contactId LEFT JOIN channels ch ON ch.id = m.channelId
        WHERE message_fts MATCH ?1 AND message_fts.rowid > ?2 AND m.radioId = ?3
          AND m.timestamp > coalesce(c.archivedAt, ch.archivedAt, -1)
        ORDER BY score LIMIT ?4
        """

    /// The kept hits with their snippets (the expensive part, so only for them). One range
    /// scan of the index over the hits' row ids: looking each up by id would set a prefix
    /// query up again per hit. The `+` keeps SQLite from turning the IN list into lookups.
    static let hitsSQL = MessageRecord.selectSQL.replacingOccurrences(of: "FROM messages m", with: """
        , snippet(message_fts, 0, char(57344), char(57345), '…', 16) AS snippet FROM message_fts JOIN messages m ON m.id = message_fts.rowid
        """) + """

        WHERE message_fts MATCH ?1 AND message_fts.rowid BETWEEN ?2 AND ?3 AND +message_fts.rowid IN (SELECT value FROM json_each(?4))
        """

    static func run(_ db: Database, radio: RadioID, query: SearchQuery, limit: Int, window: Int64 = window) throws -> [SearchHit] {
        guard limit > 0 else { return [] }
        // A row-id bound for the window, not data: the radio filter is in rankSQL.
        let newest = try Int64.fetchOne(cached: db, sql: "SELECT max(id) FROM messages") ?? 0
        var span = window
        var ranked: [(id: Int64, score: Double)] = []
        while true {
            let after = newest > span ? newest - span : 0
            ranked = try Row.fetchAll(cached: db, sql: rankSQL, arguments: [query.pattern, after, radio.rawValue, limit]).map {
                (try $0.decode(Int64.self, forColumn: "id"), try $0.decode(Double.self, forColumn: "score"))
            }
            if ranked.count >= limit || after == 0 { break }
            span *= 4
        }
        guard let low = ranked.map(\.id).min(), let high = ranked.map(\.id).max() else { return [] }
        let ids = "[" + ranked.map { String($0.id) }.joined(separator: ",") + "]"
        var found: [Int64: SearchHit] = [:]
        for row in try Row.fetchAll(cached: db, sql: hitsSQL, arguments: [query.pattern, low, high, ids]) {
            let message = try MessageRecord(row: row).value
            found[message.id] = SearchHit(message: message, snippet: highlighted(try row.decode(forColumn: "snippet")), score: 0)
        }
        return ranked.compactMap { r in found[r.id].map { hit in SearchHit(message: hit.message, snippet: hit.snippet, score: r.score) } }
    }

    /// Splits a marked snippet into parts and removes the search-only word breaks.
    static func highlighted(_ marked: String) -> HighlightedText {
        var parts: [HighlightedText.Part] = []
        var current = String.UnicodeScalarView()
        var inMatch = false
        func flush() {
            if !current.isEmpty { parts.append(.init(text: SearchText.unsegmented(String(current)), isMatch: inMatch)) }
            current = String.UnicodeScalarView()
        }
        for s in marked.unicodeScalars {
            if s == open || s == close {
                flush()
                inMatch = s == open
            } else {
                current.append(s)
            }
        }
        flush()
        return HighlightedText(parts: parts)
    }
}
