import Foundation
import GRDB
import MeshCodec

enum ConversationQueries {
    /// Served by the partial index contacts_unread: only rows with unread messages are read.
    static let unreadSQL = """
        SELECT publicKey AS key, NULL AS slot, unreadCount FROM contacts WHERE radioId = ? AND unreadCount > 0
        UNION ALL
        SELECT NULL, channelIndex, unreadCount FROM channels WHERE radioId = ? AND unreadCount > 0
        """

    static func unread(_ db: Database, radio: RadioID) throws -> UnreadCounts {
        var out: [Conversation: Int] = [:]
        for row in try Row.fetchAll(cached: db, sql: unreadSQL, arguments: [radio.rawValue, radio.rawValue]) {
            let count: Int = try row.decode(forColumn: "unreadCount")
            if try row.decode(Data?.self, forColumn: "key") != nil {
                out[.direct(try row.publicKey("key", table: "contacts"))] = count
            } else {
                out[.channel(try row.decode(forColumn: "slot"))] = count
            }
        }
        return UnreadCounts(byConversation: out)
    }
}
