import Foundation
import MeshportTestSupport
import Testing

/// A region end to end in real processes (RegionRig): MeshSim's three radios -> three
/// gateways (`meshport serve --mqtt` or `meshport uplink`) -> Mosquitto -> two `meshport ingest`
/// workers -> PostgreSQL, counted against the simulator's heard log, with and without faults on
/// the way; then read back through `meshport serve --history`. One at a time: each runs eight
/// processes on a shared machine.
@Suite(.serialized, .timeLimit(.minutes(3))) struct RegionEndToEndTests {
    @Test func everyHearingIsStoredOnceWithPositionsAndTexts() async throws {
        let rig = try await RegionRig(gateway: .serve)
        try await rig.waitForScenarioEnd()
        try await Self.finishAndCheck(rig)
        try await Self.checkRegionAPI(RegionReader(databaseURL: rig.databaseURL), against: HeardLog(file: rig.heardLog))
    }

    @Test func aWorkerKilledMidStreamAndStartedAgainLosesNothing() async throws {
        let rig = try await RegionRig()
        try await Self.midStream(rig)
        await rig.killWorker(0)
        try await Task.sleep(for: .seconds(3))
        try rig.startWorker(0)
        try await rig.waitForScenarioEnd()
        try await Self.finishAndCheck(rig)
    }

    @Test func postgresRestartedMidStreamLosesNothing() async throws {
        let rig = try await RegionRig()
        try await Self.midStream(rig)
        try await rig.postgres.stop()
        try await Task.sleep(for: .seconds(3))
        try await rig.postgres.start()
        try await rig.waitForScenarioEnd()
        try await Self.finishAndCheck(rig)
    }

    /// Mosquitto 2.0.11 restored from its persistence file delivers nothing to the workers'
    /// shared subscriptions until they have connected again: what the gateways publish in
    /// between is dropped (seen here as every hearing from the kill until the workers were back
    /// missing, for the gateways that reconnected first; Docs/ingest.md). Nothing is stored
    /// twice all the same.
    @Test func theBrokerRestartedMidStreamStoresNothingTwice() async throws {
        let rig = try await RegionRig()
        try await Self.restartBrokerMidStream(rig)
        try await Self.finishAndCheck(rig, loss: "Mosquitto drops what is published after its restart until the workers reconnect")
    }

    /// The same with one of the two workers the group's anchor (`--anchor`): its plain
    /// subscriptions, which Mosquitto restores, hold what is published before the group's shared
    /// ones are back, and it writes those until its probe returns; nothing is lost.
    @Test func theBrokerRestartedMidStreamLosesNothingWithAnAnchor() async throws {
        let rig = try await RegionRig(anchor: true)
        try await Self.restartBrokerMidStream(rig)
        try await Self.finishAndCheck(rig)
        // Once at the start and once after the restart.
        let anchorSaid = rig.workers[0]?.err.current ?? ""
        #expect(anchorSaid.components(separatedBy: "deliver again").count - 1 >= 2, "the anchor's recoveries: \(anchorSaid.suffix(3000))")
    }

    /// A worker alone on plain subscriptions (`--single-worker`): Mosquitto restores those from
    /// its persistence file and queues for them while the worker reconnects, so nothing is lost.
    @Test func theBrokerRestartedMidStreamLosesNothingForASingleWorker() async throws {
        let rig = try await RegionRig(singleWorker: true)
        try await Self.restartBrokerMidStream(rig)
        try await Self.finishAndCheck(rig)
    }

    @Test func badMessagesAreKeptWithAReasonAndTheWorkersGoOn() async throws {
        let rig = try await RegionRig()
        let observer = String(repeating: "AB", count: 32)
        let packets = "meshcore/\(RegionRig.region)/\(observer)/packets"
        let bad = [
            (packets, "{not json"),
            (packets, #"{"origin_id": "\#(observer)", "timestamp": "2026-11-27T12:00:00", "raw": 42}"#),
            (packets, #"{"origin_id": "\#(observer)", "timestamp": "2026-11-27T12:00:00", "raw": "zz"}"#),
            (packets, #"{"origin_id": "\#(observer)", "timestamp": ["today"], "raw": "0E00"}"#),
            ("meshcore/\(RegionRig.region)/\(observer)/status", #"{"status": 1, "timestamp": "2026-11-27T12:00:00"}"#),
        ]
        for (topic, text) in bad { try await publishWithTool(rig.broker, topic: topic, text: text) }
        try await rig.waitForScenarioEnd()
        try await Self.finishAndCheck(rig)
        let rejected = try await rig.query("SELECT topic, convert_from(payload, 'UTF8'), reason FROM rejected_messages")
        #expect(Set(rejected.map { [$0[0], $0[1]] }) == Set(bad.map { [$0.0, $0.1] }), "\(rejected)")
        for row in rejected { #expect(row[2].count > 10, "a reason for \(row[1]): \(row[2])") }
        for (index, worker) in rig.workers.enumerated() { #expect(worker?.process.isRunning == true, "worker \(index) stopped: \(rig.said)") }
    }

    /// The broker killed -9 once traffic flows, back 3 s later; returns when the scenario has sent everything.
    private static func restartBrokerMidStream(_ rig: RegionRig) async throws {
        try await midStream(rig)
        await rig.broker.kill9()
        try await Task.sleep(for: .seconds(3))
        try await rig.broker.start()
        try await rig.waitForScenarioEnd()
    }

    /// The `/api/region/...` routes against the heard log: every advertised node with its
    /// advertised position, the three observers, the scenario's Public texts, each node's
    /// observations one per hearing of its adverts, and the hourly counts adding up to every hearing.
    private static func checkRegionAPI(_ reader: RegionReader, against heard: HeardLog) async throws {
        let adverts = try heard.adverts()
        let nodes = try await reader.all("/api/region/nodes?limit=5000", "nodes")
        let listed = Dictionary(nodes.compactMap { node in (node["key"] as? String).map { ($0, node) } }, uniquingKeysWith: { first, _ in first })
        #expect(listed.count == nodes.count, "a node listed twice: \(nodes.map { $0["key"] ?? "" })")
        for (key, item) in Dictionary(adverts.map { ($0.advert.publicKey.hex, $0) }, uniquingKeysWith: { first, _ in first }) {
            let node = listed[key]
            #expect(node?["name"] as? String == item.data.name, "\(item.data.name ?? key) listed as \(node ?? [:])")
            if let position = item.data.position {
                let latitude = node?["latitude"] as? Double, longitude = node?["longitude"] as? Double
                #expect(latitude.map { abs($0 - position.latitude) < 1e-5 } == true && longitude.map { abs($0 - position.longitude) < 1e-5 } == true,
                        "\(item.data.name ?? key) listed at \(latitude ?? .nan), \(longitude ?? .nan), advertised at \(position)")
            }
            let observations = try await reader.all("/api/region/nodes/\(key)/observations?limit=500", "observations")
            let perObserver = Dictionary(grouping: observations, by: { $0["observer"] as? String ?? "" }).mapValues(\.count)
            let hearings = Dictionary(grouping: adverts.filter { $0.advert.publicKey.hex == key }, by: \.radio).mapValues(\.count)
            #expect(perObserver == hearings, "\(item.data.name ?? key)'s observations per observer")
        }
        #expect(Set(RegionScenario.nodes.map(\.id)).isSubset(of: Set(nodes.compactMap { $0["name"] as? String })), "the scenario's nodes: \(nodes)")

        let observers = try await reader.get("/api/region/observers")["observers"] as? [[String: Any]] ?? []
        #expect(Set(observers.compactMap { $0["key"] as? String }) == Set(heard.perRadio.keys) && observers.count == RegionRig.radios, "\(observers)")

        let messages = try await reader.all("/api/region/channels/messages?channel=Public&limit=500", "messages")
        #expect(messages.map { "\($0["sender"] as? String ?? "?"): \($0["text"] as? String ?? "?")" }.sorted()
                == RegionScenario.texts.map { "\($0.0): \($0.1)" }.sorted(), "\(messages)")

        let hours = try await reader.get("/api/region/hours")["hours"] as? [[String: Any]] ?? []
        #expect(hours.compactMap { $0["observations"] as? Int }.reduce(0, +) == heard.pushed.count, "observations per hour: \(hours)")
    }

    /// Waits until the workers have written part of the traffic.
    private static func midStream(_ rig: RegionRig) async throws {
        let deadline = Date().addingTimeInterval(60)
        while try await rig.count("SELECT count(*) FROM observations") < 100, Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        try #require(try await rig.count("SELECT count(*) FROM observations") >= 100, "no traffic reached the database: \(rig.said)")
    }

    /// Stops the traffic, waits for the database and compares it with the heard log: nothing
    /// stored that was not heard or more often than heard, and (unless `loss` names why some is
    /// known to go missing) everything heard stored, with the scenario's positions and texts.
    private static func finishAndCheck(_ rig: RegionRig, loss: Comment? = nil) async throws {
        try await rig.stopSim()
        let heard = try HeardLog(file: rig.heardLog)
        try #require(heard.pushed.count > 200, "the radios pushed only \(heard.pushed.count) packets: \(rig.said)")
        // With a known loss the count never gets there: a shorter wait.
        try await rig.waitForDatabase(heard, within: loss == nil ? 90 : 20)

        let (unstored, unheard) = try await rig.compare(heard)
        #expect(unheard == 0, "\(unheard) observations no gateway pushed (or stored twice)")
        let hashes = try heard.logicalHashes()
        let stored = try await rig.query("SELECT hash, observation_count FROM logical_packets")
        #expect(Set(stored.map { $0[0] }).isSubset(of: hashes) && Set(stored.map { $0[0] }).count == stored.count, "logical packets stored once")
        #expect(stored.map { Int($0[1]) ?? 0 }.reduce(0, +) == (try await rig.count("SELECT count(*) FROM observations")), "observation counts")
        let observers = try await rig.query("SELECT encode(key, 'hex') FROM observers")
        #expect(Set(observers.map { $0[0] }) == Set(heard.perRadio.keys), "each gateway's status")

        let figures = unstored.isEmpty ? "" : await rig.gatewayFigures()
        let complete = {
            #expect(unstored.isEmpty, "hearings not stored (ms after the start, per radio): \(unstored)\n\(figures)\n\(rig.said)")
            #expect(stored.count == hashes.count, "\(stored.count) logical packets stored, \(hashes.count) heard")
            #expect(try await rig.count("SELECT count(DISTINCT raw) FROM packets") == Set(heard.pushed.map(\.raw)).count, "distinct raw packets")
            let observations = try await rig.query("SELECT encode(observer_key, 'hex'), count(*) FROM observations GROUP BY 1")
            let perObserver = Dictionary(uniqueKeysWithValues: observations.map { ($0[0], Int($0[1]) ?? -1) })
            #expect(perObserver == heard.perRadio, "observations per observer")
            let nodes = try await rig.query("SELECT name, latitude, longitude FROM nodes")
            for node in RegionScenario.nodes {
                let row = nodes.first { $0[0] == node.id }
                let latitude = row.flatMap { Double($0[1]) }, longitude = row.flatMap { Double($0[2]) }
                #expect(latitude.map { abs($0 - node.latitude) < 1e-5 } == true && longitude.map { abs($0 - node.longitude) < 1e-5 } == true,
                        "\(node.id) stored at \(row ?? []), placed at \(node.latitude), \(node.longitude)")
            }
            let texts = try await rig.query("SELECT sender, text FROM channel_messages")
            #expect(texts.map { "\($0[0]): \($0[1])" }.sorted() == RegionScenario.texts.map { "\($0.0): \($0.1)" }.sorted())
        }
        if let loss {
            await withKnownIssue(loss, isIntermittent: true) { try await complete() }
        } else {
            try await complete()
        }
    }
}
