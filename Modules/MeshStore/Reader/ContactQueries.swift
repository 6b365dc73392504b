import GRDB

enum ContactQueries {
    /// Served in index order by contacts_radio_list.
    static let listSQL = "SELECT * FROM contacts WHERE radioId = ? ORDER BY isFavourite DESC, name LIMIT ? OFFSET ?"

    static func list(_ db: Database, radio: RadioID, limit: Int, offset: Int) throws -> [StoredContact] {
        try ContactRecord.fetchAll(cached: db, sql: listSQL, arguments: [radio.rawValue, limit == .max ? -1 : limit, offset]).map(\.value)
    }
}
