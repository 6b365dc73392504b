import Foundation
import GRDB
import MeshCodec

/// Row of `positions`: where a node was at a time.
typealias PositionRecord = SampleRecord<PositionSample>

extension PositionSample: StoredSample {
    static let databaseTableName = "positions"
    static let sampleColumns = ["latitudeE6", "longitudeE6", "altitude", "source", "recordedAt"]

    init(row: Row, node: PublicKey?) throws {
        let source: Int = try row.decode(forColumn: "source")
        self.init(node: try row.requiredNode(node, table: Self.databaseTableName),
                  coordinates: Coordinates(latitudeE6: try row.decode(forColumn: "latitudeE6"), longitudeE6: try row.decode(forColumn: "longitudeE6")),
                  altitude: try row.decode(forColumn: "altitude"), source: PositionSource(rawValue: source) ?? .advert,
                  recordedAt: try row.millis("recordedAt"))
    }

    func write(to s: inout some ColumnSink) {
        s.int(coordinates.latitudeE6)
        s.int(coordinates.longitudeE6)
        s.real(altitude)
        s.int(source.rawValue)
        s.int(recordedAt.storeMillis)
    }
}
