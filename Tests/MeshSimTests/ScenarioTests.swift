import MeshCodec
@testable import MeshSim
import Testing

/// Scenarios: what they build, and the located errors for what they get wrong.
@Suite(.timeLimit(.minutes(1))) struct ScenarioTests {
    @Test func extendingTheDefaultMeshWithGeneratedContacts() throws {
        var radio = RadioSpec()
        radio.maxContacts = 100
        radio.name = "Big"
        let s = try Scenario(extendsDefault: true, radio: radio, generate: [GenerateSpec(count: 60, type: "chat", namePrefix: "Field", maxHops: 2)]).state(seed: 3)
        #expect(s.contacts.count == DefaultMesh.nodeCount + 60 && s.name == "Big")
        #expect(s.contacts.contacts.filter { $0.name.hasPrefix("Field ") }.allSatisfy { $0.outPath.length.hopCount <= 2 })
        let again = try Scenario(extendsDefault: true, radio: radio, generate: [GenerateSpec(count: 60, type: "chat", namePrefix: "Field", maxHops: 2)]).state(seed: 3)
        #expect(again == s, "same seed, same mesh")
    }

    /// The most a scenario may generate, all within the radio's reach: every one is in the mesh
    /// and among the repeaters that echo its floods, in key order. (Before the generated nodes
    /// were added at once, this took minutes: the neighbours were re-sorted per node.)
    @Test func theMostGeneratedRepeatersAreAllNeighbours() throws {
        let s = try Scenario(generate: [GenerateSpec(count: 5000, type: "repeater", namePrefix: "R", maxHops: 0, contact: false)]).state(seed: 9)
        #expect(s.nodes.count == 5000 && s.contacts.count == 0)
        let keys = s.neighbourRepeaters.map(\.publicKey.bytes)
        #expect(keys.count == 5000 && Set(keys).count == 5000)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    }

    @Test func eventsAreScheduled() throws {
        var a = NodeSpec(id: "a")
        a.name = "Ann"
        let events = [EventSpec(at: 2, dm: MessageSpec(from: "a", text: "hi")), EventSpec(at: 3, channel: MessageSpec(from: "Ann", text: "all"))]
        var s = try Scenario(nodes: [a], events: events).state()
        #expect(SimHandler.advance(&s, to: .seconds(1)).isEmpty)
        #expect(SimHandler.advance(&s, to: .seconds(3)).withoutAirLog == [.push(.messageWaiting), .push(.messageWaiting)])
        #expect(s.offlineQueue.count == 2)
    }

    /// Texts at the firmware's limits (counted in UTF-8 bytes) are carried whole: on the air,
    /// into the queue, with nothing recorded as a problem.
    @Test func textsAtTheirLimitsArriveWhole() throws {
        var a = NodeSpec(id: "a")
        a.name = "Ann"
        let dm = String(repeating: "é", count: 80)                       // 160 bytes
        let channel = String(repeating: "ü", count: 77) + "x"            // "Ann: " + 155 bytes
        let events = [EventSpec(at: 1, dm: MessageSpec(from: "a", text: dm)), EventSpec(at: 2, channel: MessageSpec(from: "a", text: channel))]
        var s = try Scenario(nodes: [a], events: events).state()
        _ = SimHandler.advance(&s, to: .seconds(10))
        #expect(s.problems.isEmpty)
        var texts: [String] = []
        while let m = s.offlineQueue.pop() {
            if case let .contactMessage(m) = m { texts.append(m.text) }
            if case let .channelMessage(m) = m { texts.append(m.text) }
        }
        #expect(texts == [dm, "Ann: " + channel])
    }

    @Test func readingsChangeWhatTheRadioReports() throws {
        var radio = RadioSpec()
        radio.noiseFloor = -110
        var s = try Scenario(radio: radio, events: [EventSpec(at: 5, readings: ReadingsSpec(batteryMillivolts: 3600))]).state()
        func reported(at now: Duration) -> (battery: UInt16, noise: Int16)? {
            guard case let .core(core) = SimHandler.stats(s, .core, now: now), case let .radio(radio) = SimHandler.stats(s, .radio, now: now) else { return nil }
            return (core.batteryMillivolts, radio.noiseFloor)
        }
        #expect(reported(at: .seconds(1)).map { [Int($0.battery), Int($0.noise)] } == [4100, -110])
        _ = SimHandler.advance(&s, to: .seconds(5))
        #expect(reported(at: .seconds(5)).map { [Int($0.battery), Int($0.noise)] } == [3600, -110], "the noise floor left out keeps its value")
    }

    @Test(arguments: [
        (Scenario(radio: { var r = RadioSpec(); r.maxContacts = 0; return r }()), "radio.maxContacts: 0 is outside 1...1000"),
        (Scenario(nodes: [{ var n = NodeSpec(id: "x"); n.via = ["nope"]; return n }()]), "nodes[0].via[0]: no node with id \"nope\""),
        (Scenario(nodes: [NodeSpec(id: "x"), NodeSpec(id: "x")]), "nodes[1].id: \"x\" is used twice"),
        (Scenario(nodes: [{ var n = NodeSpec(id: "x"); n.type = "toaster"; return n }()]), "nodes[0].type: unknown node type \"toaster\" (chat, repeater, room, sensor)"),
        (Scenario(nodes: [{ var n = NodeSpec(id: "x"); n.sensors = [SensorSpec(type: "humidity", values: [1e9])]; return n }()]), "nodes[0].sensors[0]: cannot be sent as LPP"),
        (Scenario(radio: { var r = RadioSpec(); r.maxContacts = 1; return r }(), nodes: [NodeSpec(id: "x"), NodeSpec(id: "y")]), "nodes[1]: the contact table is full (radio.maxContacts is 1)"),
        (Scenario(events: [EventSpec(at: 1, dm: MessageSpec(from: "ghost", text: "boo"))]), "events[0].dm.from: no node with id or name \"ghost\""),
        (Scenario(events: [EventSpec(at: 1)]), "events[0]: needs exactly one of dm, channel, advert, readings"),
        (Scenario(events: [EventSpec(at: 1, readings: ReadingsSpec())]), "events[0].readings: names neither batteryMillivolts nor noiseFloor"),
        (Scenario(events: [EventSpec(at: 1, readings: ReadingsSpec(noiseFloor: 12))]), "events[0].readings.noiseFloor: 12 dBm is not a noise floor"),
        (Scenario(lossPerHop: 2), "lossPerHop: 2.0 is not between 0 and 1"),
        (Scenario(nodes: [NodeSpec(id: "a")], events: [EventSpec(at: 1, dm: MessageSpec(from: "a", text: String(repeating: "é", count: 80) + "!"))]),
         "events[0].dm.text: 161 bytes; a DM's text is at most 160 bytes in UTF-8"),
        (Scenario(nodes: [{ var n = NodeSpec(id: "a"); n.name = "Ann"; return n }()],
                  events: [EventSpec(at: 1, channel: MessageSpec(from: "a", text: String(repeating: "x", count: 156)))]),
         "events[0].channel.text: 161 bytes; a channel message's \"Ann: <text>\" is at most 160 bytes in UTF-8"),
        (Scenario(nodes: [NodeSpec(id: "ann"), { var n = NodeSpec(id: "hall"); n.type = "room"; n.posts = [PostSpec(from: "ann", text: String(repeating: "p", count: 152))]; return n }()]),
         "nodes[1].posts[0].text: 152 bytes; a room post is at most 151 bytes in UTF-8"),
        // Fuzz findings (Tools/Fuzz/corpus/scenario/regression-*): both trapped.
        (Scenario(chatter: ChatterSpec(startAt: 1e300)), "chatter.startAt: 1e+300 is outside 0...86400 seconds"),
        (Scenario(nodes: [NodeSpec(id: "ann"), { var n = NodeSpec(id: "hall"); n.type = "room"; n.posts = [PostSpec(from: "ann", text: "old", minutesAgo: .max)]; return n }()]),
         "nodes[1].posts[0].minutesAgo: 9223372036854775807 is outside 0..."),
    ] as [(Scenario, String)])
    func badScenariosSayWhatAndWhere(scenario: Scenario, message: String) {
        #expect {
            _ = try scenario.state()
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
