import Foundation
import MeshCodec
@testable import MeshSim
import Testing

/// One mesh heard by several gateways: who hears which copy of a packet, how well, and when.
@Suite(.timeLimit(.minutes(1))) struct SharedAirTests {
    /// A talker at 52.0 N 5.0 E, a repeater 5 km south of it; gateways 1.5, 3 and 5 km north,
    /// one 12 km south (beyond the talker's reach, 7 km past the repeater) and one 220 km away.
    /// The talker says one line on Public at 40 s, after the nodes' first adverts.
    static func scenario() -> Scenario {
        var talker = NodeSpec(id: "talker")
        (talker.latitude, talker.longitude) = (52.0, 5.0)
        var relay = NodeSpec(id: "relay")
        relay.type = "repeater"
        (relay.latitude, relay.longitude) = (51.955, 5.0)
        var s = Scenario(seed: 11, nodes: [talker, relay], events: [EventSpec(at: 40, channel: MessageSpec(from: "talker", text: "hello"))])
        s.gateways = [GatewaySpec(name: "North 1", latitude: 52.0135, longitude: 5.0), GatewaySpec(name: "North 3", latitude: 52.027, longitude: 5.0),
                      GatewaySpec(name: "North 5", latitude: 52.045, longitude: 5.0), GatewaySpec(name: "South", latitude: 51.892, longitude: 5.0),
                      GatewaySpec(name: "Far", latitude: 54.0, longitude: 5.0)]
        return s
    }

    /// The channel text's copies each gateway hears: (gateway, hearing, packet).
    private func channelText(_ hearings: [AirHearing]) throws -> [(Int, AirHearing, AirPacket)] {
        try hearings.compactMap { h in
            let packet = try AirPacket(decoding: h.packet.payload)
            return packet.payloadType == .groupText ? (h.gateway, h, packet) : nil
        }
    }

    @Test func theSameSeedGivesTheSameHearings() throws {
        func run(_ seed: UInt64) throws -> [AirHearing] {
            var mesh = try GatewayMesh.defaultMesh(radios: 3, seed: seed)
            let hearings = (1...12).flatMap { mesh.air.advance(to: .seconds(10 * $0)) }
            #expect(mesh.air.problems.isEmpty)
            return hearings
        }
        let first = try run(4)
        #expect(first.count > 20, "two minutes of the default mesh: adverts and chatter")
        #expect(try run(4) == first)
        #expect(try run(5) != first)
        #expect(Set(first.map(\.gateway)) == [0, 1, 2])
    }

    @Test func aPacketInRangeOfThreeGatewaysIsHeardThreeTimesWithDifferentSNR() throws {
        var mesh = try Self.scenario().gatewayMesh()
        let heard = try channelText(mesh.air.advance(to: .seconds(60)))
        let direct = heard.filter { $0.2.path.hops.isEmpty }
        #expect(direct.map(\.0) == [0, 1, 2], "the three northern gateways hear the talker itself, once each")
        let snrs = direct.map(\.1.packet.snrX4)
        #expect(snrs[0] > snrs[1] && snrs[1] > snrs[2], "farther, weaker: \(snrs)")
        #expect(direct.map(\.1.packet.rssi) == direct.map(\.1.packet.rssi).sorted(by: >))
        #expect(Set(direct.map(\.1.due)).count == 3, "each gateway reports it at its own time")
        #expect(Set(direct.map(\.1.packet.payload)).count == 1, "the same packet")
        for (_, h, _) in heard {
            #expect((-80...48).contains(h.packet.snrX4) && (-128...(-40)).contains(h.packet.rssi))
        }
    }

    @Test func aFarGatewayHearsNothing() throws {
        var mesh = try Self.scenario().gatewayMesh()
        let all = mesh.air.advance(to: .seconds(600))
        #expect(all.contains { $0.gateway == 0 })
        #expect(!all.contains { $0.gateway == 4 }, "220 km away")
    }

    @Test func aRepeatedPacketReachesAGatewayWithALongerPath() throws {
        var mesh = try Self.scenario().gatewayMesh()
        let relayHash = try #require(mesh.air.repeaters.first).publicKey.bytes[0]
        let heard = try channelText(mesh.air.advance(to: .seconds(60)))
        let south = heard.filter { $0.0 == 3 }
        #expect(south.map(\.2.path.hops) == [[[relayHash]]], "beyond the talker's reach: only the repeater's copy")
        let near = heard.filter { $0.0 == 0 }
        #expect(near.map(\.2.path.hops) == [[], [[relayHash]]], "the talker, then the repeater's copy")
        #expect(near[0].1.due < near[1].1.due)
        #expect(near[0].2.payload == near[1].2.payload, "the same payload on a longer path")
    }

    @Test func eachGatewayIsItsOwnRadio() throws {
        let mesh = try Self.scenario().gatewayMesh()
        #expect(Set(mesh.radios.map(\.publicKey)).count == 5)
        #expect(mesh.radios.map(\.name) == ["North 1", "North 3", "North 5", "South", "Far"])
        #expect(mesh.air.gateways.map(\.publicKey) == mesh.radios.map(\.publicKey))
        #expect(mesh.radios.allSatisfy { $0.nodes.count == 2 && $0.scheduled.isEmpty }, "the mesh's traffic is on the air, not in each radio")
    }

    /// Every hearing the air hands a radio is pushed as LOG_RX_DATA at its time, and the
    /// radio's record of what it heard says the same.
    @Test func theRadiosPushWhatTheAirDelivers() async throws {
        let clock = ManualSimClock()
        let mesh = try Self.scenario().gatewayMesh()
        var expected = mesh.air
        let air = SharedAir(mesh, clock: clock)
        let frames = Collected<(Int, [UInt8])>(), recorded = Collected<(Int, SimHearing)>()
        for (i, radio) in air.radios.enumerated() {
            _ = await radio.connect { frames.add((i, $0)) }
            await radio.recordHearings { recorded.add((i, $0)) }
        }
        for _ in 0..<120 {
            clock.advance(by: .milliseconds(500))
            await air.tick()
        }
        let delivered = expected.advance(to: .seconds(60)).filter { $0.due <= .seconds(60) }
        let pushed = Collected<(Int, ReceivedPacket)>()
        for (i, frame) in frames.items {
            guard case let .push(.logRxData(p)) = try RadioFrame(decoding: frame) else { continue }
            pushed.add((i, p))
        }
        #expect(pushed.items.count > 10)
        #expect(await air.problems.isEmpty)
        for g in 0..<5 {
            let want = delivered.filter { $0.gateway == g }.sorted { $0.due < $1.due }.map(\.packet)
            #expect(pushed.items.filter { $0.0 == g }.map(\.1) == want, "gateway \(g)")
            let log = recorded.items.filter { $0.0 == g }.map(\.1)
            #expect(log.map(\.packet) == want && log.allSatisfy { $0.pushed && $0.radio == mesh.radios[g].publicKey })
        }
    }

    /// Each gateway is a companion radio: it reads the channel text once however often it hears
    /// it, and adds the advertising talker it did not know; the far one learns nothing.
    @Test func aGatewayRadioReadsWhatItHears() async throws {
        var scenario = Self.scenario()
        scenario.nodes?[0].contact = false
        let clock = ManualSimClock()
        let air = SharedAir(try scenario.gatewayMesh(), clock: clock)
        for _ in 0..<60 {
            clock.advance(by: .seconds(1))
            await air.tick()
        }
        let near = await air.radios[0].state, far = await air.radios[4].state
        let talker = try #require(near.nodes.values.first { $0.name == "talker" })
        #expect(near.contacts.contact(talker.publicKey)?.name == "talker", "auto-added from its advert")
        var queue = near.offlineQueue
        guard case let .channelMessage(message)? = queue.pop() else { Issue.record("no channel message queued"); return }
        #expect(message.text == "talker: hello" && message.channelIndex == 0 && message.pathLength.hopCount == 0)
        #expect(queue.pop() == nil, "the repeater's copy is only logged")
        #expect(far.contacts.contact(talker.publicKey) == nil && far.offlineQueue.count == 0)
        #expect(await air.radios[0].problems.isEmpty)
    }

    /// A gateway's radio is on the air too: its zero-hop advert reaches the gateways in direct
    /// range, its flood advert also the one beyond them through the repeater (and the sender
    /// hears the repeater's echo); its position goes with it once the policy shares it.
    @Test func aGatewaysOwnAdvertIsHeardByTheOthers() async throws {
        let clock = ManualSimClock()
        let air = SharedAir(try Self.scenario().gatewayMesh(), clock: clock)
        let recorded = Collected<(Int, SimHearing)>()
        for (i, radio) in air.radios.enumerated() { await radio.recordHearings { recorded.add((i, $0)) } }
        let north1 = air.radios[0]
        let key = await north1.state.publicKey
        let relayHash = try #require(await north1.state.nodes.values.first { $0.type == .repeater }).publicKey.bytes[0]
        func adverts() throws -> [(gateway: Int, hops: [[UInt8]], advert: AdvertPacket)] {
            try recorded.items.compactMap { g, h in
                let packet = try AirPacket(decoding: h.packet.payload)
                guard packet.payloadType == .advert else { return nil }
                let advert = try AdvertPacket(decoding: h.packet.payload)
                return advert.publicKey == key ? (g, packet.path.hops, advert) : nil
            }
        }
        func run(seconds: Int) async {
            for _ in 0..<seconds * 2 {
                clock.advance(by: .milliseconds(500))
                await air.tick()
            }
        }

        #expect(await north1.handle(.sendSelfAdvert(flood: false)) == [.response(.ok(value: nil))])
        await run(seconds: 10)
        let zeroHop = try adverts()
        #expect(zeroHop.map(\.gateway).sorted() == [1, 2], "North 3 and North 5 are in direct range; South is 13 km away")
        for heard in zeroHop {
            let app = try AdvertAppData(decoding: heard.advert.appData)
            #expect(heard.hops.isEmpty && app.position == nil, "no position: the policy is none")
        }

        _ = await north1.handle(.setOtherParams(OtherParams(manualAddContacts: 0, advertLocationPolicy: 1)))
        clock.advance(by: .seconds(2))
        #expect(await north1.handle(.sendSelfAdvert(flood: true)) == [.response(.ok(value: nil))])
        await run(seconds: 10)
        let flood = try adverts().dropFirst(zeroHop.count)
        #expect(Set(flood.map(\.gateway)) == [0, 1, 2, 3], "through the repeater to South too; not Far")
        #expect(flood.filter { $0.gateway == 0 }.allSatisfy { !$0.hops.isEmpty }, "North 1 hears only the repeater's echo of its own advert")
        #expect(flood.contains { $0.gateway == 3 && $0.hops == [[relayHash]] })
        let app = try AdvertAppData(decoding: try #require(flood.first).advert.appData)
        let position = try #require(app.position)
        #expect(app.name == "North 1" && abs(position.latitude - 52.0135) < 1e-6 && abs(position.longitude - 5) < 1e-6)
        #expect(await air.radios[1].state.contacts.contact(key)?.name == "North 1", "North 3 added it from its advert")
        #expect(await air.problems.isEmpty)
        #expect(await north1.problems.isEmpty)
    }

    @Test func theLinkFollowsDistanceWithinLoRasRanges() throws {
        let here = Coordinates(latitude: 52, longitude: 5)
        func at(_ km: Double) -> AirLink? { AirLink.between(here, Coordinates(latitude: 52 + km / 111.195, longitude: 5)) }
        #expect(at(0) == AirLink(snrX4: 48, rssi: -40), "close by: clamped at +12 dB and -40 dBm")
        #expect(at(1)?.rssi == -108)
        let edge = try #require(at(8))
        #expect(edge.snrX4 > -80 && edge.snrX4 < -70 && edge.rssi == -128, "\(edge)")
        #expect(at(9) == nil, "beyond about 8 km")
    }

    @Test(arguments: [
        (#"{"gateways": [{"latitude": 52}]}"#, "longitude"),
        (#"{"gateways": [{"latitude": 95, "longitude": 5}]}"#, "gateways[0]: 95.0, 5.0 is not a position on Earth"),
        (#"{"gateways": [{"latitude": 52, "longitude": 5, "privateKey": "abcd"}]}"#, "gateways[0].privateKey: not 128 hex digits"),
        (#"{"gateways": [{"latitude": 52, "longitude": 5, "seed": 3}, {"latitude": 52, "longitude": 5, "seed": 3}]}"#, "gateways[1]: has the same key as another gateway"),
        (#"{"gateways": []}"#, "gateways (count): 0 is outside 1...64"),
    ])
    func badGatewaysAreNamed(json: String, message: String) throws {
        do {
            _ = try JSONDecoder().decode(Scenario.self, from: Data(json.utf8)).gatewayMesh()
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func radiosAndAScenariosGatewaysExcludeEachOther() {
        #expect(throws: ScenarioError("gateways", "the scenario places its gateways; --radios cannot add others")) {
            try Self.scenario().gatewayMesh(radios: 2)
        }
    }
}

/// What a push sink collects, from whichever thread it runs on.
private final class Collected<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [T] = []

    func add(_ item: T) { lock.withLock { list.append(item) } }
    var items: [T] { lock.withLock { list } }
}
