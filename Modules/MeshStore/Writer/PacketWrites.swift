import Foundation
import GRDB

/// The packet log: heard packets written in the coalescer's batches, then the radio's log
/// trimmed to its cap (the oldest go).
enum PacketWrites {
    static func insert(_ db: Database, radioId: Int64, packets: [HeardPacket], cap: Int, now: Date) throws -> (inserted: Int, trimmed: Int) {
        guard !packets.isEmpty else { return (0, 0) }
        let insert = try BulkInsert(db, HeardPacketRecord.self)
        for packet in packets { try insert.insert(HeardPacketRecord(radioId: radioId, value: packet, createdAt: now)) }
        try insert.finish()
        // Walks the newest `cap` entries of the timeline index (milliseconds at the standard
        // cap, once per flush) and deletes what lies beyond.
        try db.execute(cached: """
            DELETE FROM heard_packets WHERE id IN (SELECT id FROM heard_packets WHERE radioId = ? \
            ORDER BY heardAt DESC, id DESC LIMIT -1 OFFSET ?)
            """, arguments: [radioId, cap])
        return (packets.count, db.changesCount)
    }
}
