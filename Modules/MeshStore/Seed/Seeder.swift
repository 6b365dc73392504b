import Foundation
import MeshCodec

/// What `meshport db seed` fills a database with.
public struct SeedPlan: Hashable, Sendable {
    public var nodes: Int
    public var telemetryPerNode: Int
    public var statsPerNode: Int
    public var positionsPerNode: Int
    public var messages: Int
    /// Remove the seed radio's rows first, even when enough nodes are there.
    public var reset: Bool

    public init(nodes: Int, telemetryPerNode: Int = 0, statsPerNode: Int = 0, positionsPerNode: Int = 0, messages: Int = 0, reset: Bool = false) {
        self.nodes = nodes
        self.telemetryPerNode = telemetryPerNode
        self.statsPerNode = statsPerNode
        self.positionsPerNode = positionsPerNode
        self.messages = messages
        self.reset = reset
    }
}

public struct SeedReport: Hashable, Sendable {
    public var radio: RadioID
    /// The database already held at least the requested nodes; nothing was written.
    public var skipped: Bool
    public var nodesBefore: Int
    public var nodes: Int
    public var rowsWritten: Int
    public var seconds: Double
}

/// The scale harness (persistence.md): synthetic nodes, samples and messages written through
/// the store's own batch writes, a chunk of nodes per transaction.
public enum Seeder {
    /// The synthetic radio every seeded row belongs to.
    public static let radioInfo = SelfInfo(
        txPower: 22, maxTxPower: 22, publicKey: PublicKey(Array(repeating: 0x5E, count: 8) + (0..<24).map { UInt8($0) })!,
        radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5), name: "Seed radio")
    static let chunk = 1000
    static let telemetryTypes: [LPPType] = [.temperature, .humidity, .voltage]

    public static func run(_ store: MeshStore, plan: SeedPlan, progress: (@Sendable (StoreProgress) -> Void)? = nil) async throws(StoreError) -> SeedReport {
        guard plan.nodes >= 0, plan.telemetryPerNode >= 0, plan.statsPerNode >= 0, plan.positionsPerNode >= 0, plan.messages >= 0 else {
            throw .invalidArgument(what: "seed plan", reason: "counts must not be negative")
        }
        let start = ContinuousClock.now
        let radio = RadioID(publicKey: radioInfo.publicKey)
        let before = try store.reader.radio(radio) == nil ? 0 : try store.reader.contactCount(radio)
        if before >= plan.nodes, !plan.reset {
            return SeedReport(radio: radio, skipped: true, nodesBefore: before, nodes: before, rowsWritten: 0, seconds: (ContinuousClock.now - start).seconds)
        }
        if plan.reset { try await store.writer.deleteRadio(radio) }
        try await store.writer.register(radioInfo)

        // Keys come from their own generator, so node n is the same node whatever the plan.
        var keyData = SyntheticData(seed: 0x5EED)
        var data = SyntheticData(seed: 0xDA7A)
        let base = Date(timeIntervalSince1970: 1_760_000_000)
        var keys: [PublicKey] = []
        keys.reserveCapacity(plan.nodes)
        var rows = 0
        var done = 0
        while done < plan.nodes {
            let count = min(chunk, plan.nodes - done)
            var contacts: [Contact] = []
            var samples = SampleBatch()
            for n in done..<(done + count) {
                let key = keyData.publicKey()
                keys.append(key)
                let position = Coordinates(latitude: data.double(45...55), longitude: data.double(-5...15))
                contacts.append(Contact(publicKey: key, type: NodeType(rawValue: UInt8(1 + n % 4)), name: data.nodeName(n),
                                        lastAdvert: UInt32(1_760_000_000 + n), position: position, lastModified: UInt32(1_760_000_000 + n)))
                for i in 0..<plan.positionsPerNode {
                    samples.positions.append(PositionSample(node: key, coordinates: position, recordedAt: base.addingTimeInterval(Double(-i * 600))))
                }
                for i in 0..<plan.telemetryPerNode {
                    let type = telemetryTypes[i % telemetryTypes.count]
                    samples.telemetry.append(TelemetrySample(node: key, record: LPPRecord(channel: 1, type: type, values: [data.double(0...30)]),
                                                             recordedAt: base.addingTimeInterval(Double(-i * 600))))
                }
                for i in 0..<plan.statsPerNode {
                    var s = StatsSample(node: key, recordedAt: base.addingTimeInterval(Double(-i * 600)))
                    s.batteryMillivolts = data.int(3300..<4200)
                    s.uptimeSeconds = data.int(0..<1_000_000)
                    s.noiseFloor = data.int(-120 ..< -90)
                    s.lastRSSI = data.int(-120 ..< -40)
                    s.lastSNRx4 = data.int(-40..<40)
                    samples.stats.append(s)
                }
            }
            let report = try await store.writer.saveSeedChunk(radio, contacts: contacts, samples: samples)
            rows += count + report.inserted
            done += count
            progress?(StoreProgress(phase: "nodes", done: done, total: plan.nodes))
        }
        rows += try await seedMessages(store, radio: radio, plan: plan, keys: keys, data: &data, base: base, progress: progress)
        let after = try store.reader.contactCount(radio)
        return SeedReport(radio: radio, skipped: false, nodesBefore: before, nodes: after, rowsWritten: rows, seconds: (ContinuousClock.now - start).seconds)
    }

    /// Half on the 8 channel slots, half DMs from the seeded nodes.
    private static func seedMessages(_ store: MeshStore, radio: RadioID, plan: SeedPlan, keys: [PublicKey], data: inout SyntheticData,
                                     base: Date, progress: (@Sendable (StoreProgress) -> Void)?) async throws(StoreError) -> Int {
        guard plan.messages > 0 else { return 0 }
        let channels = [ChannelInfo(index: 0, name: ChannelSecret.publicChannelName, secret: .publicChannel)]
            + (1..<8).map { ChannelInfo(index: UInt8($0), name: "#seed\($0)", secret: .hashtag("#seed\($0)")) }
        try await store.writer.saveChannels(radio, channels)
        var written = 0
        var done = 0
        while done < plan.messages {
            let count = min(chunk * 2, plan.messages - done)
            var batch: [IncomingMessage] = []
            batch.reserveCapacity(count)
            for i in done..<(done + count) {
                let at = base.addingTimeInterval(Double(i))
                let text = data.sentence(words: data.int(3..<12))
                if i % 2 == 0 || keys.isEmpty {
                    let sender = data.nodeName(data.int(0..<max(1, keys.count)))
                    batch.append(.channel(ChannelMessage(snrX4: Int8(data.int(-40..<40)), channelIndex: UInt8(i / 2 % 8), pathLength: .none,
                                                         senderTimestamp: UInt32(1_760_000_000 + i), text: "\(sender): \(text)"), receivedAt: at))
                } else {
                    let key = keys[i / 2 % keys.count]
                    batch.append(.direct(ContactMessage(snrX4: Int8(data.int(-40..<40)), senderPrefix: key.prefix(6), pathLength: .none,
                                                        senderTimestamp: UInt32(1_760_000_000 + i), text: text), receivedAt: at))
                }
            }
            written += try await store.writer.saveIncoming(radio, batch).filter { !$0.isDuplicate }.count
            done += count
            progress?(StoreProgress(phase: "messages", done: done, total: plan.messages))
        }
        return written
    }
}
