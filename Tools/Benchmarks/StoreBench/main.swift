// Measures MeshStore against naive baselines in the same run and prints one JSON object.
// Usage: MeshportStoreBench [WORK_DIR]   (progress on stderr)
import Foundation
import GRDB
import MeshCodec
import MeshStore

let work = CommandLine.arguments.count > 1 ? CommandLine.arguments[1]
    : FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(ProcessInfo.processInfo.processIdentifier)").path
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
func path(_ name: String) -> String { work + "/" + name }

let radio = RadioID(publicKey: Seeder.radioInfo.publicKey)
var result: [String: Any] = [:]

/// A migrated file holding the seed radio, for the naive baselines to write into.
func emptyStore(_ name: String) async throws -> String {
    let store = try MeshStore.open(at: path(name), options: StoreOptions(durability: .normal))
    try await store.writer.register(Seeder.radioInfo)
    try await store.writer.saveChannels(radio, [ChannelInfo(index: 0, name: "Public", secret: .publicChannel)])
    try await store.close()
    return path(name)
}

// MARK: Seed

func seed(_ name: String, nodes: Int) async throws -> SeedReport {
    let store = try MeshStore.open(at: path(name), options: StoreOptions(durability: .normal))
    let report = try await Seeder.run(store, plan: SeedPlan(nodes: nodes, telemetryPerNode: 3, statsPerNode: 3, positionsPerNode: 3))
    try await store.close()
    return report
}

func naiveSeed(nodes: Int) async throws -> Double {
    let file = try await emptyStore("naive-seed-\(nodes).db")
    let naive = try Naive(path: file, synchronous: "NORMAL")
    return try Measure.seconds { try naive.seed(radioId: radio.rawValue, nodes: nodes, perNode: 3) }
}

Measure.log("seed 5,000 nodes x (3 telemetry + 3 stats + 3 positions)")
let seed5k = try await seed("seed5k.db", nodes: 5_000)
let naive5k = try await naiveSeed(nodes: 5_000)
result["seed_5k"] = ["seconds": seed5k.seconds, "rows": seed5k.rowsWritten, "naive_seconds": naive5k]

Measure.log("seed 100,000 nodes")
let seed100k = try await seed("main.db", nodes: 100_000)
// The naive seed is linear (no batching to amortise); past a minute it is measured on
// 20,000 nodes and scaled, and the JSON says so.
let naiveNodes = naive5k * 20 > 60 ? 20_000 : 100_000
let naive100k = try await naiveSeed(nodes: naiveNodes) * Double(100_000 / naiveNodes)
result["seed_100k"] = ["seconds": seed100k.seconds, "rows": seed100k.rowsWritten, "naive_seconds": naive100k,
                       "naive_nodes_measured": naiveNodes]

// MARK: Durable ingest (the 500k-message corpus, synchronous=FULL, batches committed)

Measure.log("ingest 500,000 messages (durable, 1,000 per commit)")
var keys = SyntheticData(seed: 0x5EED)
let senders = (0..<1_000).map { _ in keys.publicKey() }
var data = SyntheticData(seed: 0xC0FFEE)
let base = Date(timeIntervalSince1970: 1_770_000_000)
@MainActor func message(_ i: Int) -> IncomingMessage {
    let text = data.sentence(words: data.int(3..<12))
    let at = base.addingTimeInterval(Double(i) / 100)
    // 50,000 on channel 0 (the timeline benchmark), 50,000 on each of channels 1-7, 100,000 DMs.
    switch i % 10 {
    case 0...7:
        return .channel(ChannelMessage(channelIndex: UInt8(i % 10), pathLength: .none, senderTimestamp: UInt32(i), text: "Node \(i % 97): \(text)"),
                        receivedAt: at)
    default:
        return .direct(ContactMessage(senderPrefix: senders[i % senders.count].prefix(6), pathLength: .none, senderTimestamp: UInt32(i), text: text),
                       receivedAt: at)
    }
}
let main = try MeshStore.open(at: path("main.db"), options: StoreOptions(durability: .full))
let corpus = 500_000
var ingestSeconds = 0.0
var firstSeconds = 0.0  // the first 100,000: a file with no messages yet, like the naive run's
var i = 0
while i < corpus {
    let batch = (i..<min(corpus, i + 1_000)).map(message)
    ingestSeconds += try await Measure.seconds { try await main.writer.saveIncoming(radio, batch) }
    i += batch.count
    if i == 100_000 { firstSeconds = ingestSeconds }
    if i % 100_000 == 0 { Measure.log("  \(i) messages") }
}
let naiveIngestFile = try await emptyStore("naive-ingest.db")
let naiveIngest = try Naive(path: naiveIngestFile, synchronous: "FULL")
let naiveMessages = 2_000
let naiveIngestSeconds = try Measure.seconds {
    for n in 0..<naiveMessages { try naiveIngest.saveMessage(radioId: radio.rawValue, channelId: 1, text: data.sentence(words: 7), seq: n) }
}
result["ingest"] = ["messages_per_s": Double(corpus) / ingestSeconds, "messages": corpus, "first_100k_messages_per_s": 100_000 / firstSeconds,
                    "naive_messages_per_s": Double(naiveMessages) / naiveIngestSeconds, "naive_messages": naiveMessages]

// MARK: Immediate single-message save latency

Measure.log("single-message save latency")
let single = try MeshStore.open(at: path("latency.db"), options: StoreOptions(durability: .full))
try await single.writer.register(Seeder.radioInfo)
var ours: [Double] = []
for n in 0..<2_000 {
    let m = message(n * 10)  // channel 0
    ours.append(try await Measure.seconds { try await single.writer.saveIncoming(radio, [m]) } * 1000)
}
try await single.close()
let naiveLatencyFile = try await emptyStore("naive-latency.db")
let naiveLatency = try Naive(path: naiveLatencyFile, synchronous: "FULL", journal: "DELETE")
var naiveTimes: [Double] = []
for n in 0..<500 {
    naiveTimes.append(try Measure.seconds { try naiveLatency.saveMessage(radioId: radio.rawValue, channelId: 1, text: "ping \(n)", seq: n) } * 1000)
}
result["save_latency"] = ["p50_ms": Measure.percentile(ours, 50), "p99_ms": Measure.percentile(ours, 99), "saves": ours.count,
                          "naive_p50_ms": Measure.percentile(naiveTimes, 50), "naive_p99_ms": Measure.percentile(naiveTimes, 99)]

// MARK: Reads on the big file: 100,000 contacts, 500,000 messages

let reader = main.reader
let naiveMain = try Naive(path: path("main.db"), synchronous: "NORMAL")

Measure.log("prefix lookup among 100,000 contacts")
var seedKeys = SyntheticData(seed: 0x5EED)
let allKeys = (0..<100_000).map { _ in seedKeys.publicKey() }
var pick = SyntheticData(seed: 7)
let probes = (0..<20_000).map { _ in allKeys[pick.int(0..<allKeys.count)].prefix(6) }
var found = 0
let lookupSeconds = try Measure.seconds {
    for p in probes where try reader.lookupContact(radio, prefix: p).contact != nil { found += 1 }
}
precondition(found == probes.count, "every probe is a seeded key")
let naiveLookups = probes.prefix(20)
let naiveLookupSeconds = try Measure.seconds { for p in naiveLookups { _ = try naiveMain.lookup(radioId: radio.rawValue, prefix: p) } }
result["prefix_lookup"] = ["us": lookupSeconds / Double(probes.count) * 1e6, "contacts": try reader.contactCount(radio),
                           "naive_us": naiveLookupSeconds / Double(naiveLookups.count) * 1e6]

Measure.log("timeline pages of a 50,000-message channel")
var pageTimes: [Double] = []
var cursor: TimelineCursor?
repeat {
    var page: TimelinePage?
    pageTimes.append(try Measure.seconds { page = try reader.timeline(radio, .channel(0), before: cursor, limit: 50) } * 1000)
    cursor = page?.older
} while cursor != nil
let channelId = try naiveMain.queue.read { db in
    try Int64.fetchOne(db, sql: "SELECT id FROM channels WHERE radioId = ? AND channelIndex = 0", arguments: [radio.rawValue]) ?? 0
}
var naivePages: [Double] = []
for offset in stride(from: 0, to: 50_000, by: 2_500) {
    naivePages.append(try Measure.seconds { _ = try naiveMain.page(radioId: radio.rawValue, channelId: channelId, offset: offset) } * 1000)
}
result["timeline_page"] = ["ms": Measure.mean(pageTimes), "p99_ms": Measure.percentile(pageTimes, 99), "pages": pageTimes.count,
                           "messages": try reader.channels(radio).first?.messageCount ?? 0, "naive_ms": Measure.mean(naivePages)]

Measure.log("full-text search over 500,000 messages")
// A rare word, a common one, a prefix, CJK and Cyrillic.
let queries = ["kalomi", "antenna", "relay*", "東京", "привет"]
var ftsTimes: [String: Double] = [:]
var hitsFound: [String: Int] = [:]
for q in queries {
    let query = try SearchQuery(q)
    var hits = 0
    var samples: [Double] = []
    for _ in 0..<10 { samples.append(try Measure.seconds { hits = try reader.search(radio, query, limit: 20).count } * 1000) }
    ftsTimes[q] = Measure.mean(samples)
    hitsFound[q] = hits
}
var naiveFts: [Double] = []
for q in queries {
    let word = q.replacingOccurrences(of: "*", with: "")
    naiveFts.append(try Measure.seconds { _ = try naiveMain.search(radioId: radio.rawValue, word: word) } * 1000)
}
result["fts_query"] = ["ms": Measure.mean(Array(ftsTimes.values)), "max_ms": ftsTimes.values.max() ?? 0, "per_query_ms": ftsTimes,
                       "hits": hitsFound, "messages": try reader.rowCounts(radio)["messages"] ?? 0, "naive_ms": Measure.mean(naiveFts)]
try await main.close()

do { try FileManager.default.removeItem(atPath: work) } catch { Measure.log("scratch files left in \(work): \(error)") }
let json = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
print(String(decoding: json, as: UTF8.self))
