import Foundation
import GRDB
import MeshCodec

/// Row of `telemetry_samples`: one LPP record of a node (up to three components).
typealias TelemetryRecord = SampleRecord<TelemetrySample>

extension TelemetrySample: StoredSample {
    static let databaseTableName = "telemetry_samples"
    static let sampleColumns = ["lppChannel", "lppType", "value", "value2", "value3", "recordedAt"]

    init(row: Row, node: PublicKey?) throws {
        let code: UInt8 = try row.decode(forColumn: "lppType")
        guard let type = LPPType.named(code) else {
            throw CorruptRow(table: Self.databaseTableName, column: "lppType", reason: "unknown LPP type \(code)")
        }
        let all: [Double?] = [try row.decode(forColumn: "value"), try row.decode(forColumn: "value2"), try row.decode(forColumn: "value3")]
        self.init(node: try row.requiredNode(node, table: Self.databaseTableName),
                  record: LPPRecord(channel: try row.decode(forColumn: "lppChannel"), type: type,
                                    values: all.prefix(type.scales.count).map { $0 ?? 0 }),
                  recordedAt: try row.millis("recordedAt"))
    }

    func write(to s: inout some ColumnSink) {
        let v = record.values
        s.int(record.channel)
        s.int(record.type.code)
        s.real(v.first ?? 0)
        s.real(v.count > 1 ? v[1] : nil)
        s.real(v.count > 2 ? v[2] : nil)
        s.int(recordedAt.storeMillis)
    }
}
