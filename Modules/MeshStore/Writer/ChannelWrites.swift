import Foundation
import GRDB
import MeshCodec

/// Channel slots: one row per (radio, index), updated in place when a slot changes.
enum ChannelWrites {
    static func upsert(_ db: Database, radio: RadioID, channels: [ChannelInfo], now: Date) throws -> [StoredChannel] {
        var existing: [UInt8: ChannelRecord] = [:]
        for record in try ChannelRecord.fetchAll(cached: db, sql: "SELECT * FROM channels WHERE radioId = ?", arguments: [radio.rawValue]) {
            existing[record.info.index] = record
        }
        var out: [StoredChannel] = []
        for info in channels {
            if var record = existing[info.index] {
                if record.info != info {
                    record.info = info
                    record.updatedAt = now
                    try record.update(db)
                }
                existing[info.index] = record
                out.append(record.value)
            } else {
                var record = ChannelRecord(radio: radio, info: info, now: now)
                try record.insert(db)
                existing[info.index] = record
                out.append(record.value)
            }
        }
        return out
    }
}
