import Foundation
import MeshCodec
@testable import MeshGateway
@testable import MeshSim
import MeshportTestSupport
import Testing

/// The reference client `meshcore` (PyPI) parses the same LOG_RX_DATA frames to the same SNR,
/// RSSI and bytes as the messages say; the hash and times are checked by Python's own hashlib
/// and datetime (Tools/Interop/gateway_check.py).
@Suite(.timeLimit(.minutes(2))) struct CommunityCompatibilityTests {
    @Test func meshcorePyReadsTheSameFramesAsTheMessagesSay() async throws {
        var east = NodeSpec(id: "east")
        east.type = "repeater"
        var s = try Scenario(seed: 5, nodes: [east]).state()
        let hop = try #require(s.nodes.values.first { $0.type == .repeater }).publicKey.bytes[0]
        var frames = SimHandler.handle(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 1_800_000_000, text: "compat")), now: .zero)
        frames += SimHandler.handle(&s, .sendTracePath(TraceRequest(tag: 9, authCode: 1, path: [hop])), now: .zero)
        frames += SimHandler.handle(&s, .sendSelfAdvert(flood: true), now: .zero)
        frames += SimHandler.advance(&s, to: .seconds(600))
        var heard: [ReceivedPacket] = frames.compactMap { if case let .push(.logRxData(log)) = $0 { log } else { nil } }
        // Hand-made ones for what the sim does not send: transport routes, 2-byte hops, a negative SNR.
        for (raw, snr, rssi) in [("1F3412000001AA01020304", Int8(-37), Int8(-120)), ("0A4211223344AABBCCDD", 0, -1),
                                 ("1034120000000001020304", 127, 127)] {
            heard.append(ReceivedPacket(snrX4: snr, rssi: rssi, payload: try #require(Hex.decode(raw))))
        }
        let origin = GatewayOrigin(SimHandler.selfInfo(s))
        var cases: [[String: Any]] = []
        for (i, log) in heard.enumerated() {
            let epoch = 1_790_000_000.0 + Double(i) * 37.125
            let message = try PacketMessage(heard: log, origin: origin, at: Date(timeIntervalSince1970: epoch))
            let frame = try RadioFrame.push(.logRxData(log)).encode()
            cases.append(["frame": Hex.encode(frame), "epoch": epoch,
                          "message": try JSONSerialization.jsonObject(with: Data(GatewayJSON.encode(message)))])
        }
        #expect(heard.count >= 6)
        let input = String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self)
        let run = try await runPythonScript("Tools/Interop/gateway_check.py", ["packets"], input: input)
        #expect(run.status == 0 && run.out.hasSuffix("\(heard.count) checked, 0 failed\n"), "\(run.out)\n\(run.err)")
    }
}
