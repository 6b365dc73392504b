import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MeshCodec
import MeshportTestSupport
import Testing

/// `meshport uplink` and `serve --mqtt` as a gateway operator runs them: `meshport sim` as the
/// radio, a real Mosquitto started by the test, and `mosquitto_sub` as an independent reader.
@Suite(.timeLimit(.minutes(3))) struct UplinkEndToEndTests {
    /// A message `mosquitto_sub -v` printed: its topic and JSON object.
    struct Received {
        let topic: String
        let json: [String: Any]

        init?(_ line: String) {
            guard let space = line.firstIndex(of: " "),
                  let object = try? JSONSerialization.jsonObject(with: Data(line[line.index(after: space)...].utf8)) as? [String: Any]
            else { return nil }
            topic = String(line[..<space])
            json = object
        }
    }

    static func messages(_ lines: [String]) -> [Received] { lines.compactMap(Received.init) }

    @Test func heardPacketsAndStatusReachTheBrokerInTheCommunityFormatAndTheWillSaysOffline() async throws {
        let broker = try await MosquittoProcess()
        let reader = try await MosquittoSubscriber(broker, filters: ["meshcore/#"])
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let gateway = try MeshportProcess(["uplink", "--radio", sim.address, "--mqtt", broker.url(password: "meshport-secret", query: "region=TST&qos=1&keepalive=5")])

        let lines = await reader.waitUntil(within: 90) { lines in
            let got = Self.messages(lines)
            return got.contains { $0.topic.hasSuffix("/packets") } && got.contains { $0.topic.hasSuffix("/status") && $0.json["status"] as? String == "online" }
        }
        let got = Self.messages(lines)
        let status = try #require(got.first { $0.topic.hasSuffix("/status") }, "no status; gateway said: \(gateway.err.current)")
        let key = try #require(status.json["origin_id"] as? String)
        #expect(key.count == 64 && key == key.uppercased())
        #expect(status.topic == "meshcore/TST/\(key)/status")
        #expect(status.json["origin"] as? String != nil && status.json["firmware_version"] as? String != nil)
        let packets = got.filter { $0.topic == "meshcore/TST/\(key)/packets" }
        try #require(!packets.isEmpty, "no packet on meshcore/TST/\(key)/packets; got \(got.map(\.topic))")
        for packet in packets {
            let json = packet.json
            #expect(json["type"] as? String == "PACKET" && json["direction"] as? String == "rx" && json["origin_id"] as? String == key)
            let raw = try #require(json["raw"] as? String)
            let air = try AirPacket(decoding: try #require(Hex.decode(raw)))
            #expect(json["hash"] as? String == Hex.encode(air.hash()).uppercased(), "hash of \(raw)")
            #expect(json["packet_type"] as? String == String(air.payloadType.rawValue))
            #expect(json["SNR"] is String && json["RSSI"] is String && json["len"] is String, "numbers travel as strings: \(json)")
        }

        // The gateway dies without a goodbye: the broker publishes its last will.
        await gateway.kill9()
        let after = await reader.waitUntil(within: 30) { lines in
            Self.messages(lines).contains { $0.topic.hasSuffix("/status") && $0.json["status"] as? String == "offline" }
        }
        #expect(Self.messages(after).contains { $0.topic == "meshcore/TST/\(key)/status" && $0.json["status"] as? String == "offline" },
                "no offline will after the gateway was killed")
        withExtendedLifetime(sim) {}
    }

    @Test func serveUplinksBesideItsAPIAndCountsIt() async throws {
        let broker = try await MosquittoProcess()
        let reader = try await MosquittoSubscriber(broker, filters: ["meshcore/#"])
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let serve = try MeshportProcess(["serve", "--radio", sim.address, "--http", "127.0.0.1:0",
                                 "--mqtt", broker.url(password: "meshport-secret", query: "region=SRV&qos=1")])
        let lines = await reader.waitUntil(within: 90) { Self.messages($0).contains { $0.topic.hasSuffix("/packets") } }
        let packet = try #require(Self.messages(lines).first { $0.topic.hasSuffix("/packets") },
                                  "serve uplinked no packet; it said: \(serve.err.current)")
        #expect(packet.topic.hasPrefix("meshcore/SRV/"))
        let address = try #require(serve.announcedHTTP)
        let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: "\(address)/metrics")))
        let metrics = String(decoding: data, as: UTF8.self)
        let queued = metrics.split(separator: "\n").first { $0.hasPrefix("meshport_uplink_packets_queued_total{") }
        #expect(queued.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 >= 1 } == true, "\(metrics)")

        // serve killed without a goodbye: the broker publishes the offline will for it too.
        await serve.kill9()
        let after = await reader.waitUntil(within: 30) { lines in
            Self.messages(lines).contains { $0.topic.hasPrefix("meshcore/SRV/") && $0.json["status"] as? String == "offline" }
        }
        #expect(Self.messages(after).contains { $0.topic.hasPrefix("meshcore/SRV/") && $0.json["status"] as? String == "offline" },
                "no offline will after serve was killed")
        withExtendedLifetime(sim) {}
    }

    /// The broker killed mid-stream and started again: every packet the radio heard while the
    /// uplink ran reaches a subscriber with a persistent session once (after removing the
    /// redeliveries QoS 1 allows) and in the order heard. The gateway's own packet log is what
    /// the radio heard.
    @Test func aBrokerKilledMidStreamLosesNothingAndKeepsTheOrder() async throws {
        let broker = try await MosquittoProcess()
        let reader = try await MosquittoSubscriber(broker, filters: ["meshcore/+/+/packets"], sessionID: "uplink-restart")
        try await broker.waitUntilSaved(after: Date())
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let folder = TempDir()
        let database = folder.path("gateway.db")
        let gateway = try MeshportProcess(["uplink", "--radio", sim.address, "--db", database,
                                   "--mqtt", broker.url(password: "meshport-secret", query: "region=TST&qos=1&keepalive=5")])
        let before = await reader.waitUntil(within: 90) { Self.messages($0).count >= 2 }
        try #require(Self.messages(before).count >= 2, "no packets before the kill: \(gateway.err.current)")
        await broker.kill9()
        try await Task.sleep(for: .seconds(4))
        try await broker.start()
        let atRestart = Self.messages(reader.received).count
        _ = await reader.waitUntil(within: 90) { Self.messages($0).count >= atRestart + 2 }
        try await Task.sleep(for: .seconds(2))
        #expect(await terminate(gateway.process), "the gateway did not stop on SIGTERM")
        try await Task.sleep(for: .seconds(1))

        var published: [String] = []
        var seen: Set<String> = []
        for line in reader.received {
            guard let space = line.firstIndex(of: " "), seen.insert(String(line[space...])).inserted,
                  let raw = Received(line)?.json["raw"] as? String else { continue }
            published.append(raw.uppercased())
        }
        #expect(published.count >= atRestart + 2 && atRestart >= 2, "published \(published.count), \(atRestart) before the broker came back")
        let log = try await runMeshport(["packets", "--json", "--limit", "5000", "--db", database])
        let heard = log.out.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            let packet = object["packet"] as? [String: Any] ?? object
            return (packet["raw"] as? String)?.uppercased()
        }.reversed()
        let heardInOrder = Array(heard)
        let start = try #require(heardInOrder.firstIndex(of: published[0]), "the first published packet is not in the packet log")
        let window = Array(heardInOrder[start...].prefix(published.count))
        #expect(window == published, "published \(published.count) packets; the log from the first of them holds \(heardInOrder.count - start)")
        withExtendedLifetime(sim) {}
    }

    @Test func aWrongPasswordIsASentenceAndTheRadioSideKeepsWorking() async throws {
        let broker = try await MosquittoProcess()
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let gateway = try MeshportProcess(["uplink", "--radio", sim.address, "--mqtt", broker.url(password: "wrong", query: "region=TST")])
        var said = false
        for _ in 0..<120 where !said {
            let text = gateway.err.current
            said = text.contains("password") || text.contains("credentials")
            if !said { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(said, "the gateway never said the credentials were refused: \(gateway.err.current)")
        #expect(gateway.process.isRunning, "a refusing broker must not end the gateway")
        withExtendedLifetime(sim) {}
    }

    @Test func tokenModeSignsOnTheRadioAndConnectsAsV1Key() async throws {
        // The test's broker cannot check a community JWT: this one lets any user in and logs
        // who connected. The token's signature itself is checked in MeshGatewayTests.
        let broker = try await OpenBroker()
        let sim = try await SimProcess(["--listen", "tcp://127.0.0.1:0"])
        let gateway = try MeshportProcess(["uplink", "--radio", sim.address, "--mqtt", "mqtt://127.0.0.1:\(broker.port)?region=TST&auth=token&audience=broker.example"])
        var user: String?
        for _ in 0..<180 where user == nil {
            if let range = broker.log.range(of: "u'v1_") {
                user = String(broker.log[range.lowerBound...].dropFirst(2).prefix(67))
            } else {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        let name = try #require(user, "nobody connected as v1_KEY; gateway said: \(gateway.err.current)\nbroker: \(broker.log)")
        #expect(name.count == 67 && name.dropFirst(3).allSatisfy { $0.isHexDigit && !$0.isLowercase }, "user \(name)")
        #expect(gateway.err.current.contains("token authentication"), "\(gateway.err.current)")
        withExtendedLifetime(sim) {}
    }
}

/// Mosquitto with one anonymous listener that logs each client's user name.
final class OpenBroker: @unchecked Sendable {
    let folder = TempDir()
    private(set) var port: UInt16 = 0
    private var process: Process?

    init() async throws {
        // Mosquitto exits when its port was taken meanwhile: then it starts on another.
        try await startingAgainOnTakenPorts {
            port = try freeLoopbackPort()
            let config = """
                listener \(port) 127.0.0.1
                allow_anonymous true
                connection_messages true
                log_dest file \(folder.path("mosquitto.log"))
                log_type all

                """
            try Data((mosquittoUserLine + config).utf8).write(to: folder.url.appendingPathComponent("mosquitto.conf"))
            process = try await launchMosquitto(folder: folder, ports: [port])
        }
    }

    var log: String {
        do { return try String(contentsOfFile: folder.path("mosquitto.log"), encoding: .utf8) } catch { return "" }
    }

    deinit {
        // SIGKILL: a child started from a test thread may have SIGTERM blocked.
        if let process { killInBackground(process, keeping: folder) }
    }
}
