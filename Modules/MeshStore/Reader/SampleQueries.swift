import Foundation
import GRDB
import MeshCodec

/// Newest-first reads of a node's samples (through the node's contact row of this radio).
enum SampleQueries {
    static func positions(_ db: Database, radio: RadioID, node: PublicKey, limit: Int) throws -> [PositionSample] {
        try PositionRecord.fetchAll(cached: db, sql: """
            SELECT p.*, c.publicKey AS nodeKey FROM contacts c JOIN positions p ON p.contactId = c.id
            WHERE c.radioId = ? AND c.publicKey = ? AND p.radioId = c.radioId ORDER BY p.recordedAt DESC, p.id DESC LIMIT ?
            """, arguments: [radio.rawValue, Data(node.bytes), limit]).map(\.sample)
    }

    static func telemetry(_ db: Database, radio: RadioID, node: PublicKey, type: LPPType?, limit: Int) throws -> [TelemetrySample] {
        let typeFilter = type.map { " AND t.lppType = \($0.code)" } ?? ""
        return try TelemetryRecord.fetchAll(cached: db, sql: """
            SELECT t.*, c.publicKey AS nodeKey FROM contacts c JOIN telemetry_samples t ON t.contactId = c.id
            WHERE c.radioId = ? AND c.publicKey = ? AND t.radioId = c.radioId\(typeFilter) ORDER BY t.recordedAt DESC, t.id DESC LIMIT ?
            """, arguments: [radio.rawValue, Data(node.bytes), limit]).map(\.sample)
    }

    static func stats(_ db: Database, radio: RadioID, node: PublicKey?, limit: Int) throws -> [StatsSample] {
        guard let node else {
            return try StatsSampleRecord.fetchAll(cached: db, sql: """
                SELECT s.*, NULL AS nodeKey FROM stats_samples s WHERE s.radioId = ? AND s.contactId IS NULL
                ORDER BY s.recordedAt DESC, s.id DESC LIMIT ?
                """, arguments: [radio.rawValue, limit]).map(\.sample)
        }
        return try StatsSampleRecord.fetchAll(cached: db, sql: """
            SELECT s.*, c.publicKey AS nodeKey FROM contacts c JOIN stats_samples s ON s.contactId = c.id
            WHERE c.radioId = ? AND c.publicKey = ? AND s.radioId = c.radioId ORDER BY s.recordedAt DESC, s.id DESC LIMIT ?
            """, arguments: [radio.rawValue, Data(node.bytes), limit]).map(\.sample)
    }
}
