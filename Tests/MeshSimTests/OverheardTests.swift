import Foundation
import MeshCodec
import MeshCrypto
@testable import MeshSim
import Testing

/// A scenario's busy air: packets on a channel the radio has not joined, each one LOG_RX_DATA
/// push and nothing else, at the rate and count asked for.
@Suite(.timeLimit(.minutes(1))) struct OverheardTests {
    private func scenario(_ overheard: OverheardSpec, chat: Int = 4) -> Scenario {
        var north = NodeSpec(id: "north")
        north.type = "repeater"
        var s = Scenario(seed: 3, nodes: [north], generate: chat > 0 ? [GenerateSpec(count: chat, namePrefix: "Field", maxHops: 1)] : nil)
        s.overheard = overheard
        return s
    }

    @Test func eachPacketIsOneLogPushOnAChannelTheRadioHasNotJoined() throws {
        var s = try scenario(OverheardSpec(perSecond: 100, startAt: 0.5, count: 5)).state()
        #expect(SimHandler.advance(&s, to: .milliseconds(499)).isEmpty, "nothing before startAt")
        let frames = SimHandler.advance(&s, to: .milliseconds(540))
        #expect(frames.withoutAirLog.isEmpty, "a packet the radio cannot decrypt causes nothing but its log push")
        let heard = try frames.airPackets()
        #expect(heard.count == 5)
        let speakers = Set(s.nodes.values.filter { $0.type == .chat }.map(\.name))
        for (n, (_, packet)) in heard.enumerated() {
            #expect(packet.route == .flood && packet.payloadType == .groupText)
            let group = try GroupPayload(decoding: packet.payload)
            #expect(group.channelHash == SimHandler.overheardChannel.channelHash)
            #expect(!s.channels.contains { $0.secret == SimHandler.overheardChannel }, "the radio has not joined the channel")
            let line = String(decoding: try TextContent(decoding: PacketCipher.open(group.sealed[...], secret: SimHandler.overheardChannel.bytes)).text, as: UTF8.self)
            let (name, rest) = try #require(line.firstIndex(of: ":").map { (String(line[..<$0]), line[$0...]) })
            #expect(speakers.contains(name) && rest.hasSuffix("(\(n + 1))"), "\(line)")
        }
        #expect(SimHandler.advance(&s, to: .seconds(60)).isEmpty, "count packets in all")
        #expect(s.offlineQueue.count == 0)
    }

    @Test func theRateHoldsFromStartAt() throws {
        var s = try scenario(OverheardSpec(perSecond: 2000, startAt: 1)).state()
        // Due at 1 s + n / 2000: n = 0 ... 2000 by 2 s, taken in one late step.
        #expect(try SimHandler.advance(&s, to: .seconds(2)).airPackets().count == 2001)
        #expect(try SimHandler.advance(&s, to: .milliseconds(2500)).airPackets().count == 1000)
    }

    @Test func aMeshWithoutChatNodesStillHearsStrangers() throws {
        var s = try scenario(OverheardSpec(perSecond: 10, startAt: 0, count: 3), chat: 0).state()
        #expect(try SimHandler.advance(&s, to: .seconds(1)).airPackets().count == 3)
    }

    @Test func theScenarioFileSaysIt() throws {
        let json = #"{"overheard": {"perSecond": 500, "count": 20}}"#
        let decoded = try JSONDecoder().decode(Scenario.self, from: Data(json.utf8))
        #expect(decoded.overheard == OverheardSpec(perSecond: 500, count: 20))
    }

    @Test(arguments: [
        (OverheardSpec(perSecond: 0), "overheard.perSecond: 0 is outside 1...100000"),
        (OverheardSpec(perSecond: 10, count: 0), "overheard.count: 0 is outside 1...100000000"),
        (OverheardSpec(perSecond: 10, startAt: -1), "overheard.startAt: -1.0 is outside 0...86400 seconds"),
    ] as [(OverheardSpec, String)])
    func badValuesSayWhy(spec: OverheardSpec, message: String) {
        #expect {
            _ = try scenario(spec).state()
        } throws: { error in
            "\(error)" == message
        }
    }
}
