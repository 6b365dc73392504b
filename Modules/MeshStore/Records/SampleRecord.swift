import Foundation
import GRDB
import MeshCodec

/// A sample kind stored one row per sample (positions, telemetry, stats): its table and the
/// columns between the row's owner (radioId, contactId) and its timestamps.
protocol StoredSample: Sendable {
    static var databaseTableName: String { get }
    static var sampleColumns: [String] { get }
    func write(to sink: inout some ColumnSink)
    /// `node`: the contact's key from the join, nil for the radio's own samples.
    init(row: Row, node: PublicKey?) throws
}

/// Row of a sample table: the sample, the radio and contact it belongs to, when it was stored
/// (samples are never edited, so updatedAt is createdAt).
struct SampleRecord<Sample: StoredSample>: FetchableRecord, PersistableRecord, RowValues, Sendable {
    static var databaseTableName: String { Sample.databaseTableName }
    static var columns: [String] { ["radioId", "contactId"] + Sample.sampleColumns + ["createdAt", "updatedAt"] }

    var radioId: Int64
    var contactId: Int64?
    var sample: Sample
    var createdAt: Date

    init(radioId: Int64, contactId: Int64?, sample: Sample, now: Date) {
        self.radioId = radioId
        self.contactId = contactId
        self.sample = sample
        createdAt = now
    }

    /// Reads a row joined with its contact's key as `nodeKey`.
    init(row: Row) throws {
        radioId = try row.decode(forColumn: "radioId")
        contactId = try row.decode(forColumn: "contactId")
        let node = try row.decode(Data?.self, forColumn: "nodeKey") == nil ? nil : try row.publicKey("nodeKey", table: "contacts")
        sample = try Sample(row: row, node: node)
        createdAt = try row.millis("createdAt")
    }

    func write(to s: inout some ColumnSink) {
        s.int(radioId)
        s.int(contactId)
        sample.write(to: &s)
        s.int(createdAt.storeMillis)
        s.int(createdAt.storeMillis)
    }

    func encode(to c: inout PersistenceContainer) { encodeValues(to: &c) }
}

extension Row {
    /// The node of a per-node sample (positions and telemetry always have one).
    func requiredNode(_ node: PublicKey?, table: String) throws -> PublicKey {
        guard let node else { throw CorruptRow(table: table, column: "contactId", reason: "no contact for a per-node sample") }
        return node
    }
}
