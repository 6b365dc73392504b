import Foundation
import GRDB
import MeshCodec

/// Row of `heard_packets`. Hash, payload type, route and path repeat what `raw` holds, so
/// the log can be filtered and read in SQL; `raw` is what a read decodes.
struct HeardPacketRecord: FetchableRecord, RowValues, Sendable {
    static let databaseTableName = "heard_packets"
    static let columns = ["radioId", "heardAt", "snrX4", "rssi", "hash", "payloadType", "route", "path", "raw", "channel", "node", "createdAt"]

    var radioId: Int64
    var value: HeardPacket
    var createdAt: Date

    init(radioId: Int64, value: HeardPacket, createdAt: Date) {
        self.radioId = radioId
        self.value = value
        self.createdAt = createdAt
    }

    init(row: Row) throws {
        radioId = try row.decode(forColumn: "radioId")
        let node = try row.decode(Data?.self, forColumn: "node") == nil ? nil : try row.publicKey("node", table: Self.databaseTableName)
        do {
            value = try HeardPacket(id: try row.decode(forColumn: "id"), heardAt: try row.millis("heardAt"), snrX4: try row.decode(forColumn: "snrX4"),
                                    rssi: try row.decode(forColumn: "rssi"), raw: try row.bytes("raw"), channel: try row.decode(forColumn: "channel"),
                                    node: node)
        } catch let error as CodecError {
            throw CorruptRow(table: Self.databaseTableName, column: "raw", reason: "\(error)")
        }
        createdAt = try row.millis("createdAt")
    }

    func write(to s: inout some ColumnSink) {
        s.int(radioId)
        s.int(value.heardAt.storeMillis)
        s.int(value.snrX4)
        s.int(value.rssi)
        s.blob(value.hash)
        s.int(value.packet.payloadType.rawValue)
        s.int(value.packet.route.rawValue)
        s.blob(value.packet.path.bytes)
        s.blob(value.raw)
        s.int(value.channel)
        s.blob(value.node?.bytes)
        s.int(createdAt.storeMillis)
    }
}
