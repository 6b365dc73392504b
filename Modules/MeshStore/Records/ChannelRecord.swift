import Foundation
import GRDB
import MeshCodec

/// Row of `channels`: one channel slot of a radio.
struct ChannelRecord: FetchableRecord, MutablePersistableRecord, RowValues, Sendable {
    static let databaseTableName = "channels"
    static let columns = ["radioId", "channelIndex", "name", "secret", "kind"] + ThreadState.columns + ["createdAt", "updatedAt"]

    var id: Int64?
    var radioId: Int64
    var info: ChannelInfo
    var thread = ThreadState()
    var createdAt: Date
    var updatedAt: Date

    init(radio: RadioID, info: ChannelInfo, now: Date) {
        radioId = radio.rawValue
        self.info = info
        createdAt = now
        updatedAt = now
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        radioId = try row.decode(forColumn: "radioId")
        let secret = try row.bytes("secret")
        guard let s = ChannelSecret(secret) else {
            throw CorruptRow(table: Self.databaseTableName, column: "secret", reason: "\(secret.count)-byte secret")
        }
        info = ChannelInfo(index: try row.decode(forColumn: "channelIndex"), name: try row.decode(forColumn: "name"), secret: s)
        thread = try ThreadState(row: row)
        createdAt = try row.millis("createdAt")
        updatedAt = try row.millis("updatedAt")
    }

    func write(to s: inout some ColumnSink) {
        s.int(radioId)
        s.int(info.index)
        s.text(info.name)
        s.blob(info.secret.bytes)
        s.text(ChannelKind(info).rawValue)
        thread.write(to: &s)
        s.int(createdAt.storeMillis)
        s.int(updatedAt.storeMillis)
    }

    func encode(to c: inout PersistenceContainer) {
        c["id"] = id
        encodeValues(to: &c)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var value: StoredChannel {
        StoredChannel(radio: RadioID(rawValue: radioId), info: info, kind: ChannelKind(info), unreadCount: thread.unreadCount,
                      messageCount: thread.messageCount, isArchived: thread.isArchived, createdAt: createdAt, updatedAt: updatedAt)
    }
}
