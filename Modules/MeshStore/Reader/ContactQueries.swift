import GRDB

enum ContactQueries {
    /// Served in index order by contacts_radio_list; contacts the radio no longer has are left out.
    static let listSQL = "SELECT * FROM contacts WHERE radioId = ? AND removedAt IS NULL ORDER BY isFavourite DESC, name LIMIT ? OFFSET ?"

    static func list(_ db: Database, radio: RadioID, limit: Int, offset: Int) throws -> [StoredContact] {
        try ContactRecord.fetchAll(cached: db, sql: listSQL, arguments: [radio.rawValue, limit == .max ? -1 : limit, offset]).map(\.value)
    }
}
