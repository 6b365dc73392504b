import Foundation
import GRDB

/// Pages of the packet log by (heardAt, id) cursor, newest first: one index range scan each
/// (by radio, by payload type, or by node), however deep into the log.
enum PacketQueries {
    static func page(_ db: Database, radio: RadioID, filter: PacketFilter, before: TimelineCursor?, limit: Int) throws -> PacketPage {
        guard limit > 0 else { throw StoreError.invalidArgument(what: "packet page size \(limit)", reason: "must be at least 1") }
        let cursor = before ?? TimelineCursor(timestamp: .max, id: .max)
        var conditions = ["radioId = ?", "(heardAt, id) < (?, ?)"]
        var arguments: [(any DatabaseValueConvertible)?] = [radio.rawValue, cursor.timestamp, cursor.id]
        if let type = filter.payloadType {
            conditions.append("payloadType = ?")
            arguments.append(Int(type.rawValue))
        }
        if let node = filter.node {
            conditions.append("node = ?")
            arguments.append(Data(node.bytes))
        }
        arguments.append(limit + 1)
        var records = try HeardPacketRecord.fetchAll(db, sql: """
            SELECT * FROM heard_packets WHERE \(conditions.joined(separator: " AND ")) ORDER BY heardAt DESC, id DESC LIMIT ?
            """, arguments: StatementArguments(arguments))
        // One row more than asked tells whether an older page exists.
        let more = records.count > limit
        if more { records.removeLast() }
        let packets = records.map(\.value)
        return PacketPage(packets: packets, older: more ? packets.last?.cursor : nil)
    }
}
