import MeshCodec
import MeshCrypto
@testable import MeshSim
import Testing

/// What the radio hears on air (LOG_RX_DATA): real packets, sealed as the firmware seals them,
/// its own flood packets echoed by each neighbouring repeater, and every packet that reaches it
/// logged before what it causes.
@Suite(.timeLimit(.minutes(1))) struct AirTests {
    static let scenario: Scenario = {
        var east = NodeSpec(id: "east")
        east.type = "repeater"
        var west = NodeSpec(id: "west")
        west.type = "repeater"
        var ann = NodeSpec(id: "ann")
        ann.name = "Ann"; ann.knownPath = true
        var bob = NodeSpec(id: "bob")
        bob.name = "Bob"; bob.via = ["east"]
        var cy = NodeSpec(id: "cy")
        cy.name = "Cy"; cy.via = ["east"]; cy.knownPath = true
        return Scenario(seed: 21, nodes: [east, west, ann, bob, cy])
    }()

    private func node(_ s: SimRadioState, _ name: String) -> SimNode { s.nodes.values.first { $0.name == name }! }
    private func run(_ s: inout SimRadioState, _ c: Command, at now: Duration = .zero) -> [RadioFrame] { SimHandler.handle(&s, c, now: now) }
    private func hashes(_ s: SimRadioState, _ names: String...) -> Set<[UInt8]> { Set(names.map { [node(s, $0).publicKey.bytes[0]] }) }
    /// The secret `name` shares with the radio, computed on the node's side.
    private func secret(_ s: SimRadioState, _ name: String) throws -> [UInt8] {
        try #require(node(s, name).identity?.keyExchange(publicKey: s.publicKey.bytes))
    }

    @Test func aChannelSendIsHeardOnceFromEachNeighbouringRepeater() throws {
        var s = try Self.scenario.state()
        #expect(run(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 1_800_000_000, text: "hello"))) == [.response(.ok(value: nil))])
        let heard = try SimHandler.advance(&s, to: .seconds(60)).airPackets()
        #expect(heard.count == 2)
        #expect(Set(heard.map { $0.1.path.bytes }) == hashes(s, "east", "west"))
        for (_, packet) in heard {
            #expect(packet.route == .flood && packet.payloadType == .groupText && packet.path.length.hopCount == 1)
            let group = try GroupPayload(decoding: packet.payload)
            #expect(group.channelHash == ChannelSecret.publicChannel.channelHash)
            let content = try TextContent(decoding: PacketCipher.open(group.sealed[...], secret: ChannelSecret.publicChannel.bytes))
            #expect(content.timestamp == 1_800_000_000 && content.text == Array("\(s.name): hello".utf8) && content.attempt == 0)
        }
    }

    @Test func aFloodDMEchoesAndItsAckComesAsASealedPathReturn() throws {
        var s = try Self.scenario.state()
        let bob = node(s, "Bob")
        guard case let .response(.sent(sent)) = run(&s, .sendTextMessage(SendTextMessage(attempt: 1, timestamp: 7, recipient: bob.publicKey.prefix(), text: "hi"))).first,
              sent.flood else { Issue.record("no flood SENT"); return }
        let frames = SimHandler.advance(&s, to: .seconds(60))
        let heard = try frames.airPackets().map(\.1)
        let secret = try secret(s, "Bob")

        // The DM itself, as both repeaters pass it on.
        let dms = heard.filter { $0.payloadType == .textMessage }
        #expect(Set(dms.map(\.path.bytes)) == hashes(s, "east", "west"))
        let dm = try AddressedPayload(decoding: try #require(dms.first).payload)
        #expect(dm.destinationHash == bob.publicKey.bytes[0] && dm.sourceHash == s.publicKey.bytes[0])
        let content = try TextContent(decoding: PacketCipher.open(dm.sealed[...], secret: secret))
        #expect(content.timestamp == 7 && content.attempt == 1 && content.text == Array("hi".utf8))

        // The ACK: a path-return by way of east, logged right before it teaches the path, then echoed by west.
        let returns = heard.filter { $0.payloadType == .path }
        #expect(returns.map(\.path.bytes) == [[bob.route[0]], [bob.route[0], node(s, "west").publicKey.bytes[0]]])
        let returned = try ReturnedPath(decoding: PacketCipher.open(AddressedPayload(decoding: returns[0].payload).sealed[...], secret: secret))
        #expect(returned.path == bob.path && returned.extraType == .ack && Array(returned.extra.prefix(4)) == sent.ackCode.bytes)
        let names = frames.map(\.name)
        let updated = try #require(names.firstIndex(of: "PUSH_CODE_PATH_UPDATED"))
        #expect(names[updated - 1] == "PUSH_CODE_LOG_RX_DATA" && names[updated + 1] == "PUSH_CODE_SEND_CONFIRMED")
    }

    @Test func aDirectDMIsPassedOnByItsFirstHopAndAckedDirect() throws {
        var s = try Self.scenario.state()
        let cy = node(s, "Cy")
        guard case let .response(.sent(sent)) = run(&s, .sendTextMessage(SendTextMessage(timestamp: 8, recipient: cy.publicKey.prefix(), text: "direct"))).first,
              !sent.flood else { Issue.record("no direct SENT"); return }
        let heard = try SimHandler.advance(&s, to: .seconds(60)).airPackets().map(\.1)
        // east takes itself off the path as it forwards: the radio hears an empty path.
        #expect(heard.map(\.payloadType) == [.textMessage, .ack])
        #expect(heard.allSatisfy { $0.route == .direct && $0.path.bytes.isEmpty })
        #expect(heard[1].payload == sent.ackCode.bytes)
    }

    @Test func anIncomingDMIsLoggedBeforeItIsAnnounced() throws {
        var s = try Self.scenario.state()
        let ann = node(s, "Ann")
        SimHandler.deliver(&s, .direct(from: ann.publicKey, text: "psst", sentAt: 1_800_000_100), at: .seconds(1))
        let frames = SimHandler.advance(&s, to: .seconds(1))
        #expect(frames.map(\.name) == ["PUSH_CODE_LOG_RX_DATA", "PUSH_CODE_MSG_WAITING"])
        let (log, packet) = try #require(frames.airPackets().first)
        #expect(packet.route == .direct && log.snr >= -5 && log.snr <= 11)
        let dm = try AddressedPayload(decoding: packet.payload)
        #expect(dm.destinationHash == s.publicKey.bytes[0] && dm.sourceHash == ann.publicKey.bytes[0])
        #expect(try TextContent(decoding: PacketCipher.open(dm.sealed[...], secret: secret(s, "Ann"))).text == Array("psst".utf8))
    }

    @Test func aLossyAirLosesEchoesAndAcks() throws {
        var spec = Self.scenario
        spec.lossPerHop = 1
        var s = try spec.state()
        let bob = node(s, "Bob")
        _ = run(&s, .sendTextMessage(SendTextMessage(timestamp: 9, recipient: bob.publicKey.prefix(), text: "anyone?")))
        #expect(SimHandler.advance(&s, to: .seconds(60)).isEmpty, "no echo, no ACK")
    }

    @Test func theSameSeedHearsTheSameAir() throws {
        func heard() throws -> [RadioFrame] {
            var s = try Self.scenario.state()
            _ = run(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 1, text: "again")))
            _ = run(&s, .sendTextMessage(SendTextMessage(timestamp: 2, recipient: node(s, "Bob").publicKey.prefix(), text: "again")))
            return SimHandler.advance(&s, to: .seconds(60))
        }
        #expect(try heard() == heard())
    }
}
