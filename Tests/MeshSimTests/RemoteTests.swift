import MeshCodec
@testable import MeshSim
import Testing

/// Remote requests against the scenario's servers: what the radio answers at once, what it
/// pushes when the node's reply arrives, and what never comes (Docs/protocol.md §7.5).
@Suite(.timeLimit(.minutes(1))) struct RemoteTests {
    static let scenario: Scenario = {
        var rpt = NodeSpec(id: "rpt")
        rpt.type = "repeater"; rpt.name = "Hilltop"; rpt.ownerInfo = "ops@example"
        var room = NodeSpec(id: "room")
        room.type = "room"; room.via = ["rpt"]; room.knownPath = true; room.allowReadOnly = true
        room.posts = [PostSpec(from: "ann", text: "first", minutesAgo: 60), PostSpec(from: "ann", text: "second", minutesAgo: 30)]
        var ann = NodeSpec(id: "ann")
        ann.name = "Ann"; ann.answersTelemetry = true; ann.knownPath = true
        var bob = NodeSpec(id: "bob")
        bob.name = "Bob"; bob.via = ["rpt"]
        var cy = NodeSpec(id: "cy")
        cy.name = "Cy"; cy.via = ["rpt"]; cy.answersTelemetry = true
        var wx = NodeSpec(id: "wx")
        wx.type = "sensor"; wx.knownPath = true
        wx.sensors = [SensorSpec(channel: 2, type: "humidity", values: [55]), SensorSpec(channel: 2, type: "gps", values: [52.1, 4.3, 2])]
        return Scenario(seed: 9, nodes: [rpt, room, ann, bob, cy, wx])
    }()

    private func radio() throws -> SimRadioState { try Self.scenario.state() }
    private func key(_ s: SimRadioState, _ name: String) -> PublicKey { s.nodes.values.first { $0.name == name }!.publicKey }
    private func run(_ s: inout SimRadioState, _ c: Command, at now: Duration = .zero) -> [RadioFrame] { SimHandler.handle(&s, c, now: now) }
    /// Everything the mesh still has to say.
    private func drain(_ s: inout SimRadioState, from now: Duration = .zero) -> [RadioFrame] { SimHandler.advance(&s, to: now + .seconds(600)).withoutAirLog }
    private func sent(_ frames: [RadioFrame]) -> Sent? {
        if case let .response(.sent(x)) = frames.first { return x }
        return nil
    }

    @Test func loginWithEachPasswordKind() throws {
        var s = try radio()
        let rpt = key(s, "Hilltop")
        let answer = try #require(sent(run(&s, .sendLogin(rpt, password: "password"))))
        #expect(answer.ackCode.bytes == Array(rpt.bytes.prefix(4)) && answer.flood, "tag = the key's first 4 bytes; no path yet: flood")
        let pushes = drain(&s)
        #expect(pushes.first == .push(.pathUpdated(rpt)), "the flood login came back as a path-return")
        guard case let .push(.loginSuccess(ok)) = pushes.last else { Issue.record("no LOGIN_SUCCESS: \(pushes)"); return }
        #expect(ok.isAdmin && ok.aclPermissions == 3 && ok.firmwareLevel == 2 && ok.serverPrefix == rpt.prefix() && ok.serverTimestamp != nil)

        // Guest password (blank on a repeater): a known client keeps its permission.
        _ = run(&s, .sendLogin(rpt, password: ""), at: .seconds(700))
        guard case let .push(.loginSuccess(again)) = drain(&s, from: .seconds(700)).last else { Issue.record("no second login"); return }
        #expect(again.aclPermissions == 3)

        // A wrong password gets no answer at all: the client times out.
        _ = run(&s, .sendLogin(rpt, password: "nope"), at: .seconds(1400))
        #expect(drain(&s, from: .seconds(1400)).isEmpty)
        #expect(run(&s, .sendLogin(PublicKey([UInt8](repeating: 7, count: 32))!, password: "x")) == [.response(.error(.notFound))])
    }

    @Test func aServerThatAnswersRefusalsGivesLoginFail() throws {
        var s = try radio()
        let rpt = key(s, "Hilltop")
        s.nodes[rpt]?.server?.answersRefusedLogins = true
        _ = run(&s, .sendLogin(rpt, password: "nope"))
        #expect(drain(&s).last == .push(.loginFail(rpt.prefix())))
        // The right password still logs in.
        _ = run(&s, .sendLogin(rpt, password: "password"), at: .seconds(700))
        guard case .push(.loginSuccess) = drain(&s, from: .seconds(700)).last else { Issue.record("no login"); return }
    }

    @Test func roomServerGrantsByPasswordAndPushesPosts() throws {
        var s = try radio()
        let room = key(s, "room")
        #expect(sent(run(&s, .sendLogin(room, password: "hello")))?.flood == false, "known path: direct")
        let pushes = drain(&s)
        guard case let .push(.loginSuccess(ok)) = pushes.first else { Issue.record("no LOGIN_SUCCESS: \(pushes)"); return }
        #expect(ok.aclPermissions == 2 && !ok.isAdmin && ok.permissions == 0 && ok.firmwareLevel == 1)
        #expect(pushes.dropFirst().allSatisfy { $0 == .push(.messageWaiting) } && pushes.count == 3, "two posts queued")
        var posts: [ContactMessage] = []
        for _ in 0..<2 {
            if case let .response(.contactMessage(m)) = run(&s, .syncNextMessage).first { posts.append(m) }
        }
        #expect(posts.map(\.text) == ["first", "second"] && posts.allSatisfy { $0.textType == .signedPlain })
        #expect(posts.first?.authorPrefix == key(s, "Ann").prefix(4) && posts.first?.senderPrefix == room.prefix())
        // The next login sends the newest post's time: nothing is pushed again.
        _ = run(&s, .sendLogin(room, password: "anything"), at: .seconds(700))
        let again = drain(&s, from: .seconds(700))
        guard case let .push(.loginSuccess(readOnly)) = again.first else { Issue.record("read-only login refused: \(again)"); return }
        #expect(readOnly.aclPermissions == 0 && readOnly.permissions == 2 && again.count == 1)
    }

    @Test func statusAndTelemetryNeedALogin() throws {
        var s = try radio()
        let rpt = key(s, "Hilltop")
        _ = run(&s, .sendStatusRequest(rpt))
        #expect(drain(&s).filter { if case .push(.statusResponse) = $0 { true } else { false } }.isEmpty, "not in the access list: silence")
        _ = run(&s, .sendLogin(rpt, password: ""), at: .seconds(700))
        _ = drain(&s, from: .seconds(700))
        let tag = try #require(sent(run(&s, .sendStatusRequest(rpt), at: .seconds(1400))))
        #expect(!tag.flood, "the login's path-return taught the path")
        guard case let .push(.statusResponse(prefix, blob)) = drain(&s, from: .seconds(1400)).last else { Issue.record("no STATUS_RESPONSE"); return }
        let status = try #require(RepeaterStatus(blob: blob))
        #expect(prefix == rpt.prefix() && blob.count == 56 && status.uptimeSeconds > 86_400 && status.receiveErrors == 3)

        _ = run(&s, .sendTelemetryRequest(rpt, reserved: [0, 0, 0]), at: .seconds(2100))
        guard case let .push(.telemetryResponse(_, lpp)) = drain(&s, from: .seconds(2100)).last else { Issue.record("no TELEMETRY_RESPONSE"); return }
        #expect(try CayenneLPP.decode(lpp).map(\.type) == [.voltage, .temperature])
    }

    @Test func sensorTelemetryFollowsPermissions() throws {
        var s = try radio()
        let wx = key(s, "wx")
        _ = run(&s, .sendLogin(wx, password: ""))   // guest
        _ = drain(&s)
        _ = run(&s, .sendTelemetryRequest(wx, reserved: [0, 0, 0]), at: .seconds(700))
        guard case let .push(.telemetryResponse(_, guest)) = drain(&s, from: .seconds(700)).last else { Issue.record("no telemetry"); return }
        #expect(try CayenneLPP.decode(guest).map(\.type) == [.voltage], "guests get base data only")
        _ = run(&s, .sendLogin(wx, password: "password"), at: .seconds(1400))
        _ = drain(&s, from: .seconds(1400))
        _ = run(&s, .sendTelemetryRequest(wx, reserved: [0, 0, 0]), at: .seconds(2100))
        guard case let .push(.telemetryResponse(_, admin)) = drain(&s, from: .seconds(2100)).last else { Issue.record("no telemetry"); return }
        #expect(try CayenneLPP.decode(admin).map(\.type) == [.voltage, .humidity, .gps])
    }

    @Test func companionsAnswerTelemetryOnlyWhenAllowed() throws {
        var s = try radio()
        let tag = try #require(sent(run(&s, .sendTelemetryRequest(key(s, "Ann"), reserved: [0, 0, 0]))))
        guard case let .push(.telemetryResponse(prefix, lpp)) = drain(&s).last else { Issue.record("no telemetry"); return }
        #expect(prefix == key(s, "Ann").prefix() && !lpp.isEmpty && tag.ackCode.value > 0)
        _ = run(&s, .sendTelemetryRequest(key(s, "Bob"), reserved: [0, 0, 0]), at: .seconds(700))
        #expect(drain(&s, from: .seconds(700)).allSatisfy { $0 == .push(.pathUpdated(key(s, "Bob"))) }, "mode 0: no answer")
        guard case let .push(.telemetryResponse(own, _)) = run(&s, .sendTelemetryRequest(nil, reserved: [0, 0, 0])).first else {
            Issue.record("self telemetry is pushed at once"); return
        }
        #expect(own == s.publicKey.prefix())
    }

    @Test func aNewerRequestDropsTheEarlierReply() throws {
        var s = try radio()
        _ = run(&s, .sendTelemetryRequest(key(s, "Ann"), reserved: [0, 0, 0]))
        _ = run(&s, .sendTelemetryRequest(key(s, "wx"), reserved: [0, 0, 0]))   // not logged in: no reply, but it replaces Ann's
        #expect(drain(&s).isEmpty, "Ann's reply arrives but nothing waits for it any more")
    }

    @Test func binaryRequestsAndAccessList() throws {
        var s = try radio()
        let rpt = key(s, "Hilltop")
        _ = run(&s, .sendLogin(rpt, password: "password"))
        _ = drain(&s)
        let tag = try #require(sent(run(&s, .sendBinaryRequest(rpt, data: [0x05, 0, 0]), at: .seconds(700))))
        guard case let .push(.binaryResponse(echo, acl)) = drain(&s, from: .seconds(700)).last else { Issue.record("no BINARY_RESPONSE"); return }
        #expect(echo == tag.ackCode && acl == Array(s.publicKey.bytes.prefix(6)) + [3])
        _ = run(&s, .sendBinaryRequest(rpt, data: [0x07]), at: .seconds(1400))
        guard case let .push(.binaryResponse(_, owner)) = drain(&s, from: .seconds(1400)).last else { Issue.record("no owner info"); return }
        #expect(String(decoding: owner, as: UTF8.self) == "v1.17.1\nHilltop\nops@example")
        _ = run(&s, .sendBinaryRequest(rpt, data: [0x06, 0, 10, 0, 0, 0, 4, 1, 2, 3, 4]), at: .seconds(2100))
        guard case let .push(.binaryResponse(_, n)) = drain(&s, from: .seconds(2100)).last else { Issue.record("no neighbours"); return }
        #expect(n.prefix(4) == [3, 0, 3, 0] && n.count == 4 + 3 * 9, "room, Bob and Cy are behind Hilltop")
    }

    /// Path discovery is a flood telemetry request: only nodes that would answer one reply.
    @Test func pathDiscoveryLeavesTheStoredPath() throws {
        var s = try radio()
        let bob = key(s, "Cy")
        #expect(sent(run(&s, .sendPathDiscoveryRequest(bob)))?.flood == true)
        let pushes = drain(&s)
        guard case let .push(.pathDiscoveryResponse(r)) = pushes.last, pushes.count == 1 else { Issue.record("\(pushes)"); return }
        let hop = key(s, "Hilltop").bytes[0]
        #expect(r.outPath.bytes == [hop] && r.inPath.bytes == [hop] && r.prefix == bob.prefix())
        #expect(s.contacts.contact(bob)?.outPath.length.isNone == true)
        _ = run(&s, .sendPathDiscoveryRequest(key(s, "Bob")), at: .seconds(700))
        #expect(drain(&s, from: .seconds(700)).isEmpty, "telemetry mode 0: no answer, no path")
    }

    @Test func traceReturnsOnlyOverKnownRepeaters() throws {
        var s = try radio()
        let hop = key(s, "Hilltop").bytes[0]
        let answer = try #require(sent(run(&s, .sendTracePath(TraceRequest(tag: 77, authCode: 5, path: [hop, hop])))))
        #expect(answer.ackCode == AckCode(77) && !answer.flood)
        let frames = SimHandler.advance(&s, to: .seconds(600))
        guard case let .push(.traceData(t)) = frames.last else { Issue.record("no TRACE_DATA"); return }
        #expect(t.tag == 77 && t.authCode == 5 && t.pathHashes == [hop, hop] && t.hopSNRx4.count == 2)
        // Logged first, as received: direct, the hops' SNRs as its path, tag, auth, flags and hops as its payload.
        guard frames.count >= 2, case let .push(.logRxData(log)) = frames[frames.count - 2] else { Issue.record("no LOG_RX_DATA before TRACE_DATA"); return }
        let packet = try AirPacket(decoding: log.payload)
        #expect(packet.route == .direct && packet.payloadType == .trace && log.snrX4 == t.finalSNRx4)
        #expect(packet.path.bytes == t.hopSNRx4.map { UInt8(bitPattern: $0) } && packet.path.length.hopCount == 2)
        #expect(packet.payload == [77, 0, 0, 0, 5, 0, 0, 0, 0, hop, hop])
        _ = run(&s, .sendTracePath(TraceRequest(tag: 78, authCode: 0, path: [hop &+ 1 == 0xFF ? 1 : hop &+ 1])), at: .seconds(700))
        #expect(drain(&s, from: .seconds(700)).isEmpty, "an unknown hop never answers")
        #expect(run(&s, .sendTracePath(TraceRequest(tag: 1, authCode: 0, flags: 1, path: [hop]))) == [.response(.error(.illegalArgument))],
                "2-byte hashes need an even path")
    }

    @Test func lossyAirLosesReplies() throws {
        var lossy = Self.scenario
        lossy.lossPerHop = 1
        var s = try lossy.state()
        _ = run(&s, .sendTelemetryRequest(key(s, "Ann"), reserved: [0, 0, 0]))
        #expect(drain(&s).isEmpty)
    }

    @Test func hasConnectionAndLogout() throws {
        var s = try radio()
        let rpt = key(s, "Hilltop")
        _ = run(&s, .sendLogin(rpt, password: "password"))
        _ = drain(&s)
        #expect(run(&s, .hasConnection(rpt)) == [.response(.error(.notFound))], "v1.17.1 servers ask for no keep-alive")
        #expect(run(&s, .logout(rpt)) == [.response(.ok(value: nil))])
    }
}
