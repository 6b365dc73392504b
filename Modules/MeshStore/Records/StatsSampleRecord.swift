import Foundation
import GRDB
import MeshCodec

/// Row of `stats_samples`: radio statistics of the radio itself (no contact) or a remote node.
typealias StatsSampleRecord = SampleRecord<StatsSample>

extension StatsSample: StoredSample {
    static let databaseTableName = "stats_samples"
    static let counters = [
        "batteryMillivolts", "uptimeSeconds", "errorFlags", "queueLength", "noiseFloor", "lastRSSI", "lastSNRx4", "txAirtimeSeconds",
        "rxAirtimeSeconds", "packetsReceived", "packetsSent", "sentFlood", "sentDirect", "receivedFlood", "receivedDirect", "receiveErrors",
    ]
    static let sampleColumns = ["recordedAt"] + counters

    /// The counters in `counters` order.
    private var counterValues: [Int?] {
        [batteryMillivolts, uptimeSeconds, errorFlags, queueLength, noiseFloor, lastRSSI, lastSNRx4, txAirtimeSeconds, rxAirtimeSeconds,
         packetsReceived, packetsSent, sentFlood, sentDirect, receivedFlood, receivedDirect, receiveErrors]
    }

    init(row: Row, node: PublicKey?) throws {
        let c = try Self.counters.map { column in try row.decode(Int?.self, forColumn: column) }
        self.init(node: node, recordedAt: try row.millis("recordedAt"))
        (batteryMillivolts, uptimeSeconds, errorFlags, queueLength) = (c[0], c[1], c[2], c[3])
        (noiseFloor, lastRSSI, lastSNRx4, txAirtimeSeconds) = (c[4], c[5], c[6], c[7])
        (rxAirtimeSeconds, packetsReceived, packetsSent, sentFlood) = (c[8], c[9], c[10], c[11])
        (sentDirect, receivedFlood, receivedDirect, receiveErrors) = (c[12], c[13], c[14], c[15])
    }

    func write(to s: inout some ColumnSink) {
        s.int(recordedAt.storeMillis)
        for value in counterValues { s.int(value) }
    }
}
