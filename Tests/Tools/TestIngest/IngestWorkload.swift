import ArgumentParser
import Foundation
import MeshCodec
import MeshportTestSupport
import MeshStore

/// The crash test's workload, for tests and soak runs only (KillTests, Tools/Store/kill-rounds.sh;
/// never part of `meshport`). It writes messages as fast as it can and prints `ack ID:SEQ ...`
/// after each commit returns, until killed. With `--verify FILE` it checks instead that every
/// acknowledged message of FILE is stored.
@main
struct IngestWorkload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "MeshportTestIngest", abstract: "Crash-test workload: ingest until killed, or verify what was acknowledged.")

    @Option(help: ArgumentHelp("Database file.", valueName: "path")) var db: String
    @Option(help: "First sequence number (one range per round keeps rounds apart).") var start = 0
    @Option(help: "Stop after this many messages (default: until killed).") var count = Int.max
    @Option(help: "Messages per batch commit.") var batch = 32
    @Option(help: "Verify the acknowledgements in this file instead of ingesting.") var verify: String?

    func run() async throws {
        if let verify {
            try verifyAcks(file: verify)
        } else {
            try await ingest()
        }
    }

    static let radioInfo = SelfInfo(txPower: 20, maxTxPower: 22, publicKey: PublicKey(Array(repeating: 0x6B, count: 32))!,
                                    radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5),
                                    name: "Kill test")

    /// What `meshport db` opens: read-write, every commit durable.
    private func open() throws -> MeshStore {
        try MeshStore.open(at: db, options: StoreOptions(mode: .readWrite, durability: .full))
    }

    private func ingest() async throws {
        let store = try open()
        let radio = try await store.writer.register(Self.radioInfo).id
        var data = SyntheticData(seed: UInt64(start))
        let peers = (0..<16).map { _ in data.publicKey() }
        try await store.writer.saveContacts(radio, peers.enumerated().map { Contact(publicKey: $1, type: .chat, name: "Peer \($0)") })
        var seq = start
        var round = 0
        let end = count == .max ? Int.max : start + count
        while seq < end {
            // Alternate immediate single saves and batch commits, with some samples between.
            let size = round % 3 == 0 ? 1 : min(batch, end - seq)
            var messages: [IncomingMessage] = []
            for i in seq..<(seq + size) {
                let text = "ingest #\(i) " + data.sentence(words: 6)
                let at = Date(timeIntervalSince1970: 1_760_000_000 + Double(i) / 1000)
                if i % 2 == 0 {
                    messages.append(.channel(ChannelMessage(channelIndex: UInt8(i / 2 % 8), pathLength: .none, senderTimestamp: UInt32(i),
                                                            text: "peer: \(text)"), receivedAt: at))
                } else {
                    messages.append(.direct(ContactMessage(senderPrefix: peers[i / 2 % peers.count].prefix(6), pathLength: .none,
                                                           senderTimestamp: UInt32(i), text: text), receivedAt: at))
                }
            }
            let saved = try await store.writer.saveIncoming(radio, messages)
            let line = "ack " + zip(saved, seq...).map { "\($0.id):\($1)" }.joined(separator: " ") + "\n"
            // Unbuffered: a line on the pipe is a commit that has returned.
            FileHandle.standardOutput.write(Data(line.utf8))
            seq += size
            round += 1
            if round % 8 == 0 {
                let samples = peers.map { PositionSample(node: $0, coordinates: Coordinates(latitude: 50, longitude: 8), recordedAt: Date()) }
                try await store.writer.saveSamples(radio, SampleBatch(positions: samples))
            }
        }
        try await store.close()
    }

    private func verifyAcks(file: String) throws {
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch { throw IngestFailure("cannot read \(file): \(error.localizedDescription)") }
        let acks = IngestAcks.parse(text)
        let store = try open()
        let report = try store.integrityCheck()
        guard report.isOK else { throw IngestFailure("integrity check failed: \(report.integrity.joined(separator: "; "))") }
        let radio = RadioID(publicKey: Self.radioInfo.publicKey)
        let missing = try IngestAcks.missing(acks, in: store, radio: radio)
        guard missing.isEmpty else {
            throw IngestFailure("\(missing.count) of \(acks.count) acknowledged messages are missing (first: id \(missing[0].id), #\(missing[0].seq))")
        }
        print("integrity: ok")
        print("acknowledged: \(acks.count) present")
    }
}

/// A check that failed, in words (printed on stderr; exit status 1).
struct IngestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
