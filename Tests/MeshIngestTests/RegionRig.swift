import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import MeshCodec
import MeshportTestSupport

/// A whole region in real processes (Docs/scale-out.md): `meshport sim --radios 3` on one air,
/// one gateway (QoS 1) per radio, a Mosquitto that keeps every worker's queue, two
/// `meshport ingest` workers in one group and a PostgreSQL. The scenario's mesh adverts with
/// positions and sends Public texts; `stopSim()` ends the traffic, so the heard log is complete.
final class RegionRig: @unchecked Sendable {
    /// How a radio reaches the broker: `meshport uplink`, or `meshport serve --mqtt`, whose
    /// uplink starts only once the radio is ready (Modules/MeshportServer/Radios/RadioUplinks.swift).
    enum Gateway {
        case uplink
        case serve
    }

    static let radios = 3
    static let region = "E2E"
    static let group = "region-e2e"

    let dir = TempDir()
    let broker: MosquittoProcess
    let postgres: PostgresProcess
    let database: String
    let databaseURL: String
    private var sim: MeshportProcess?
    private var simStarted = Date.distantFuture
    private var gateways: [MeshportProcess] = []
    private(set) var workers: [MeshportProcess?] = []
    /// One worker on plain subscriptions (`--single-worker`) instead of two in a group.
    let singleWorker: Bool
    /// Worker 0 is the group's anchor (`--anchor`).
    let anchor: Bool

    var heardLog: String { dir.path("heard.jsonl") }

    /// Everything up: the workers subscribed before the first gateway publishes.
    /// With `.serve`, also until every gateway's status reached the database, which must be
    /// before the busy air starts (RegionScenario.trafficStart).
    init(singleWorker: Bool = false, anchor: Bool = false, gateway: Gateway = .uplink) async throws {
        self.singleWorker = singleWorker
        self.anchor = anchor
        broker = try await MosquittoProcess(queueLimit: 1_000_000)
        postgres = try await PostgresProcess()
        database = "region_e2e"
        databaseURL = try await postgres.createDatabase(database)
        try JSONSerialization.data(withJSONObject: RegionScenario.json, options: [.sortedKeys])
            .write(to: dir.url.appendingPathComponent("scenario.json"))
        let started = Date()
        workers = singleWorker ? [nil] : [nil, nil]
        for index in workers.indices { try startWorker(index) }
        for index in workers.indices {
            for kind in ["packets", "status"] {
                try await broker.waitForSubscription(clientID(index), to: (singleWorker ? "" : "$share/\(Self.group)/") + "meshcore/+/+/\(kind)")
            }
        }
        // Their sessions (and subscriptions) survive a broker restart from now on.
        try await broker.waitUntilSaved(after: started)
        simStarted = Date()
        let sim = try MeshportProcess(["sim", "--radios", String(Self.radios), "--seed", "27", "--listen", "tcp://127.0.0.1:0",
                                   "--scenario", dir.path("scenario.json"), "--heard-log", dir.path("heard.jsonl")])
        self.sim = sim
        let lines = try await sim.outLines(Self.radios, within: 60)
        for line in lines {
            // "meshport sim: listening on tcp://127.0.0.1:PORT (radio N of 3, NAME, key HEX)"
            guard let address = line.split(separator: " ").first(where: { $0.hasPrefix("tcp://") }) else {
                throw ProcessFailure("no address in \(line)")
            }
            let mqtt = broker.url(query: "region=\(Self.region)&qos=1&keepalive=5")
            switch gateway {
            case .uplink: gateways.append(try MeshportProcess(["uplink", "--radio", String(address), "--mqtt", mqtt]))
            case .serve: gateways.append(try MeshportProcess(["serve", "--radio", String(address), "--http", "127.0.0.1:0", "--mqtt", mqtt]))
            }
        }
        if gateway == .serve { try await waitForObservers() }
    }

    /// Waits until every gateway's status is stored, and fails when that came after the busy
    /// air began: what a radio heard before its uplink started was never sent.
    private func waitForObservers() async throws {
        let deadline = simStarted.addingTimeInterval(Double(RegionScenario.trafficStart))
        while try await count("SELECT count(*) FROM observers") < Self.radios, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let stored = try await count("SELECT count(*) FROM observers")
        guard stored == Self.radios else {
            throw ProcessFailure("\(stored) of \(Self.radios) gateways were up \(RegionScenario.trafficStart) s after the simulator started: \(said)")
        }
    }

    func clientID(_ index: Int) -> String { "e2e-worker-\(index)" }

    /// Starts worker `index` (again) with its own state folder and client id.
    func startWorker(_ index: Int) throws {
        let subscription = singleWorker ? ["--single-worker"] : ["--workers-group", Self.group] + (anchor && index == 0 ? ["--anchor"] : [])
        workers[index] = try MeshportProcess(["ingest", "--mqtt", broker.url(), "--postgres", databaseURL] + subscription
                                             + ["--state", dir.path("worker-\(index)"), "--client-id", clientID(index), "--batch-ms", "100"])
    }

    func killWorker(_ index: Int) async {
        await workers[index]?.kill9()
        workers[index] = nil
    }

    /// Waits until the scenario has sent everything (counted from the simulator's start).
    func waitForScenarioEnd() async throws {
        let left = simStarted.addingTimeInterval(Double(RegionScenario.seconds)).timeIntervalSinceNow
        if left > 0 { try await Task.sleep(for: .milliseconds(Int(left * 1000))) }
    }

    /// SIGTERM to the simulator: the radios stop hearing first, so every `pushed` line of the
    /// heard log reached its uplink.
    func stopSim() async throws {
        guard let sim, await terminate(sim.process, within: 30) else { throw ProcessFailure("meshport sim did not stop on SIGTERM") }
    }

    /// The pushed hearings without an observation (when each was heard, ms since the
    /// simulator started, per radio), and the observations no pushed hearing accounts for.
    func compare(_ heard: HeardLog) async throws -> (unstored: [String: [Int]], unheard: Int) {
        let rows = try await query("""
            SELECT encode(o.observer_key, 'hex'), encode(p.raw, 'hex') FROM observations o JOIN packets p ON p.hash = o.packet_hash
            """)
        var stored: [String: Int] = [:]
        for row in rows { stored[row[0] + row[1].lowercased(), default: 0] += 1 }
        var unstored: [String: [Int]] = [:]
        for line in heard.pushed {
            let key = line.radio.lowercased() + line.raw.lowercased()
            if let left = stored[key], left > 0 {
                stored[key] = left - 1
            } else {
                unstored[String(line.radio.prefix(8)), default: []].append(line.elapsedMs)
            }
        }
        return (unstored, stored.values.reduce(0, +))
    }

    /// Rows of `sql` in the region database.
    func query(_ sql: String) async throws -> [[String]] { try await postgres.query(sql, database: database) }

    func count(_ sql: String) async throws -> Int { Int(try await query(sql).first?.first ?? "") ?? -1 }

    /// What the processes said on stderr, for a failure's message: the start of each and its
    /// end (a gateway's last lines are its retries once the simulator is gone).
    var said: String {
        let named = (sim.map { [("sim", $0)] } ?? []) + gateways.enumerated().map { ("gateway \($0.offset)", $0.element) }
            + workers.enumerated().compactMap { item in item.element.map { ("worker \(item.offset)", $0) } }
        return named.map { name, process in
            let text = process.err.current
            guard text.count > 6000 else { return "\(name): \(text)" }
            return "\(name): \(text.prefix(4500))\n  [...]\n\(text.suffix(1500))"
        }.joined(separator: "\n")
    }

    /// Each `serve` gateway's own account of its radio and uplink (/metrics: packets heard,
    /// queued, delivered, refused, dropped), so a loss shows on which side of the gateway it was.
    func gatewayFigures() async -> String {
        var lines: [String] = []
        for (index, gateway) in gateways.enumerated() {
            guard let address = gateway.announcedHTTP, let url = URL(string: "\(address)/metrics") else { continue }
            do {
                let (data, _) = try await URLSession.shared.data(from: url)
                let figures = String(decoding: data, as: UTF8.self).split(separator: "\n")
                    .filter { $0.hasPrefix("meshport_uplink_") || $0.hasPrefix("meshport_radio_packets_heard_total") || $0.hasPrefix("meshport_radio_reconnects") }
                lines.append("gateway \(index):\n  " + figures.joined(separator: "\n  "))
            } catch {
                lines.append("gateway \(index): /metrics unreadable: \(error)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Waits until the workers wrote everything the heard log says was pushed (at most
    /// `seconds`), then a little longer, so anything stored twice would show.
    func waitForDatabase(_ heard: HeardLog, within seconds: Double = 90) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await count("SELECT count(*) FROM observations") >= heard.pushed.count { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        try await Task.sleep(for: .seconds(1))
    }
}

/// What `--heard-log` says the radios pushed (lines with `pushed: true`).
struct HeardLog {
    struct Line: Decodable {
        var radio: String
        var raw: String
        var pushed: Bool
        var elapsedMs: Int
    }

    let pushed: [Line]

    init(file: String) throws {
        pushed = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
            .filter(\.pushed)
    }

    /// The MeshCore hash of every packet pushed, whatever its path.
    func logicalHashes() throws -> Set<String> {
        Set(try pushed.map { line in
            guard let bytes = Hex.decode(line.raw) else { throw ProcessFailure("the heard log has a raw packet that is not hex: \(line.raw)") }
            return try AirPacket(decoding: bytes).hashText
        })
    }

    /// The adverts pushed: who heard each (lower-case hex key) and what it said.
    func adverts() throws -> [(radio: String, advert: AdvertPacket, data: AdvertAppData)] {
        try pushed.compactMap { line in
            guard let bytes = Hex.decode(line.raw) else { throw ProcessFailure("the heard log has a raw packet that is not hex: \(line.raw)") }
            guard try AirPacket(decoding: bytes).payloadType == .advert else { return nil }
            let advert = try AdvertPacket(decoding: bytes)
            return (line.radio.lowercased(), advert, try AdvertAppData(decoding: advert.appData))
        }
    }

    /// Hearings per radio (its key in lower-case hex).
    var perRadio: [String: Int] { Dictionary(grouping: pushed, by: { $0.radio.lowercased() }).mapValues(\.count) }
}

/// The mesh of the region tests: four nodes at known places, each advertising (once in the
/// first 30 s, and by an event at 20 s, when the gateways have long been up), Public texts, and a busy air so
/// there is traffic to interrupt.
enum RegionScenario {
    struct Node {
        let id: String
        let type: String
        let latitude: Double
        let longitude: Double
    }

    static let nodes = [
        Node(id: "ann", type: "chat", latitude: 52.3751, longitude: 4.8952),
        Node(id: "bob", type: "chat", latitude: 52.3652, longitude: 4.8853),
        Node(id: "cyd", type: "chat", latitude: 52.3723, longitude: 4.8804),
        Node(id: "ridge", type: "repeater", latitude: 52.3684, longitude: 4.9005),
    ]

    /// (sender, text, second) of each Public text.
    static let texts = [("ann", "morning all", 21), ("bob", "anyone on the ridge?", 23), ("cyd", "heard you both", 25),
                        ("ann", "going out at noon", 27), ("bob", "see you there", 29)]

    /// When the busy air starts: `serve` gateways are up by then (RegionRig's `.serve`).
    static let trafficStart = 8

    /// When the last of it has been sent (the busy air ends at 30 s).
    static let seconds = 31

    static var json: [String: Any] {
        var events: [[String: Any]] = texts.map { ["at": $0.2, "channel": ["from": $0.0, "text": $0.1, "index": 0]] }
        events += nodes.enumerated().map { ["at": 20 + $0.offset, "advert": $0.element.id] }
        return [
            "radio": ["latitude": 52.37, "longitude": 4.89],
            "nodes": nodes.map { ["id": $0.id, "type": $0.type, "latitude": $0.latitude, "longitude": $0.longitude] as [String: Any] },
            "events": events,
            "overheard": ["perSecond": 10, "startAt": trafficStart, "count": 10 * (30 - trafficStart)],
        ]
    }
}
