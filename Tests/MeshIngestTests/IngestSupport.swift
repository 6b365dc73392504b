import Foundation
import MeshCodec
import MeshIngest
import MeshMQTT
import MeshRegion
import MeshportTestSupport
import Synchronization

/// A region sink for the tests: keeps what it is given, in the order written.
final class TestSink: RegionSink, Sendable {
    private let written = Mutex(RegionBatch())

    func write(_ batch: RegionBatch) async throws {
        written.withLock {
            $0.hearings += batch.hearings
            $0.observers += batch.observers
            $0.rejected += batch.rejected
        }
    }

    var raws: [[UInt8]] { written.withLock { $0.hearings.map(\.raw) } }
    var all: RegionBatch { written.withLock { $0 } }
}

enum IngestTest {
    /// The raw packet of message `index`: an ACK whose code is the index, so every one is distinct.
    static func raw(_ index: Int) -> [UInt8] {
        [0x0E, 0x00] + (0..<4).map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }
    }

    static func settings(_ broker: MosquittoProcess, dir: TempDir, name: String, group: String = "ingest-test", batchSize: Int = 20,
                         spoolBound: Int = 1000) throws -> IngestSettings {
        IngestSettings(brokers: [try MQTTBrokerURL(parsing: broker.url())], group: group, clientID: "worker-\(name)-\(UUID().uuidString.prefix(6))",
                       spoolFolder: dir.url.appendingPathComponent(name), batchSize: batchSize, batchInterval: .milliseconds(20),
                       spoolBound: spoolBound, retryMin: .milliseconds(100), retryMax: .milliseconds(400))
    }

    /// A gateway publishing `count` packet messages (QoS 1) and waiting until the broker has all.
    static func publish(_ broker: MosquittoProcess, range: Range<Int>) async throws {
        let publisher = try MQTTClient(broker: try MQTTBrokerURL(parsing: broker.url()),
                                       options: MQTTClientOptions(clientID: "gateway-\(UUID().uuidString.prefix(6))", retryMin: .milliseconds(200)))
        await publisher.start()
        for index in range {
            let message = try IngestFixtures.packetMessage(raw(index))
            try await publisher.publish(MQTTMessage(topic: IngestFixtures.topics.packets, payload: message, qos: .atLeastOnce))
        }
        let deadline = Date().addingTimeInterval(30)
        while await publisher.stats.delivered < range.count, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        await publisher.close()
    }

    /// Waits until `condition` holds (at most `seconds`); returns whether it did.
    static func eventually(within seconds: Double = 30, _ condition: @Sendable () async -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }
}
