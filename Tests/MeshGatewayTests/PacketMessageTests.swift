import Foundation
import MeshCodec
@testable import MeshGateway
@testable import MeshSim
import Testing

/// Packet messages exactly as the community tools write them (Docs/gateway.md, "Packet message").
@Suite(.timeLimit(.minutes(1))) struct PacketMessageTests {
    static let origin = GatewayOrigin(name: "Roof", publicKey: PublicKey([UInt8](repeating: 0xAB, count: 32))!)
    static let instant = Date(timeIntervalSince1970: 1_790_000_000.25)

    static func message(_ raw: String, snrX4: Int8 = 46, rssi: Int8 = -70, at instant: Date = instant) throws -> PacketMessage {
        try PacketMessage(heard: ReceivedPacket(snrX4: snrX4, rssi: rssi, payload: try #require(Hex.decode(raw))), origin: origin, at: instant)
    }

    static func json(_ message: PacketMessage) -> String { String(decoding: GatewayJSON.encode(message), as: UTF8.self) }

    @Test func aDirectTextMessageIsTheGoldenJSON() throws {
        let text = Self.json(try Self.message("0A4211223344AABBCCDD"))
        let key = String(repeating: "AB", count: 32)
        #expect(text == #"{"RSSI":"-70","SNR":"11.5","date":"21/09/2026","direction":"rx","hash":"164D94FF1BF7EBC0","len":"10","origin":"Roof","# +
                #""origin_id":"\#(key)","packet_type":"2","path":"1122,3344","payload_len":"4","raw":"0A4211223344AABBCCDD","route":"D","# +
                #""time":"14:13:20","timestamp":"2026-09-21T14:13:20.250000+00:00","type":"PACKET"}"#)
    }

    @Test func routeLettersAndPathFollowTheCompanionTool() throws {
        #expect(try Self.message("1501AA112233445566778899").route == "F")
        #expect(try Self.message("1501AA112233445566778899").path == nil, "a flood's path is not sent")
        #expect(try Self.message("1034120000000001020304").route == "F", "transport flood")
        let transportDirect = try Self.message("1F3412000001AA01020304")
        #expect(transportDirect.route == "T" && transportDirect.path == nil)
        let ack = try Self.message("0E00A1B2C3D4")
        #expect(ack.route == "D" && ack.path == "", "a direct packet on its last hop has an empty path")
    }

    @Test func numbersAreStringsAsPythonPrintsThem() throws {
        let m = try Self.message("0E00A1B2C3D4", snrX4: -20, rssi: -109)
        #expect(m.snr == "-5.0" && m.rssi == "-109" && m.length == "6" && m.payloadLength == "4" && m.packetType == "3")
        #expect(try Self.message("0E00A1B2C3D4", snrX4: -1).snr == "-0.25")
    }

    @Test func timesAreUTCInThePythonSpellings() throws {
        let whole = try Self.message("0E00A1B2C3D4", at: Date(timeIntervalSince1970: 1_709_251_199))
        #expect(whole.timestamp == "2024-02-29T23:59:59+00:00" && whole.time == "23:59:59" && whole.date == "29/02/2024",
                "no fraction when the microseconds are zero")
        let leap = try Self.message("0E00A1B2C3D4", at: Date(timeIntervalSince1970: 951_782_400.5))
        #expect(leap.timestamp == "2000-02-29T00:00:00.500000+00:00" && leap.date == "29/02/2000")
        // Python's datetime.fromtimestamp(t, timezone.utc) for both: leading zeros in the
        // fraction, a year before 1970, the last second of year 9999.
        let early = try Self.message("0E00A1B2C3D4", at: Date(timeIntervalSince1970: -30_000_000_000 + 0.000007))
        #expect(early.timestamp == "1019-05-04T18:40:00.000008+00:00" && early.time == "18:40:00" && early.date == "04/05/1019")
        let last = try Self.message("0E00A1B2C3D4", at: Date(timeIntervalSince1970: 253_402_300_799.25))
        #expect(last.timestamp == "9999-12-31T23:59:59.250000+00:00" && last.date == "31/12/9999")
    }

    @Test func aPacketThatIsNotOneIsATypedError() throws {
        #expect(throws: GatewayError.self) { try Self.message("15") }
        do {
            _ = try Self.message("15C0AA")
            Issue.record("a reserved hash size was accepted")
        } catch let GatewayError.undecodablePacket(raw, _) {
            #expect(raw == "15C0AA")
        }
    }

    /// Packets MeshSim's mesh makes heard by the radio: channel text echoed by repeaters, a
    /// direct DM's ACK, a returning trace with its SNR path, a neighbour's advert.
    @Test func packetsFromTheSimulatedMeshKeepTheirBytes() throws {
        var east = NodeSpec(id: "east")
        east.type = "repeater"
        var cy = NodeSpec(id: "cy")
        cy.name = "Cy"; cy.via = ["east"]; cy.knownPath = true
        var s = try Scenario(seed: 21, nodes: [east, cy]).state()
        let cyKey = try #require(s.nodes.values.first { $0.name == "Cy" }).publicKey
        let eastHash = try #require(s.nodes.values.first { $0.type == .repeater }).publicKey.bytes[0]
        var frames = SimHandler.handle(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 1_800_000_000, text: "hello")), now: .zero)
        frames += SimHandler.handle(&s, .sendTextMessage(SendTextMessage(timestamp: 8, recipient: cyKey.prefix(), text: "direct")), now: .zero)
        frames += SimHandler.handle(&s, .sendTracePath(TraceRequest(tag: 77, authCode: 5, path: [eastHash, eastHash])), now: .zero)
        frames += SimHandler.handle(&s, .sendSelfAdvert(flood: true), now: .zero)
        frames += SimHandler.advance(&s, to: .seconds(600))
        let heard: [ReceivedPacket] = frames.compactMap { if case let .push(.logRxData(log)) = $0 { log } else { nil } }
        var seen: Set<String> = []
        for log in heard {
            let m = try PacketMessage(heard: log, origin: Self.origin, at: Self.instant)
            let packet = try AirPacket(decoding: log.payload)
            #expect(try #require(Hex.decode(m.raw)) == log.payload, "raw is the LOG_RX_DATA bytes")
            #expect(m.hash == Hex.encode(packet.hash()).uppercased() && m.packetType == String(packet.payloadType.rawValue))
            #expect(m.length == String(log.payload.count) && m.payloadLength == String(packet.payload.count))
            #expect(m.snr == String(Double(log.snrX4) / 4) && m.rssi == String(log.rssi))
            let keys = try #require(JSONSerialization.jsonObject(with: Data(GatewayJSON.encode(m))) as? [String: String])
            var expected: Set<String> = ["origin", "origin_id", "timestamp", "type", "direction", "time", "date", "len", "packet_type", "route",
                                         "payload_len", "raw", "SNR", "RSSI", "hash"]
            if packet.route == .direct { expected.insert("path") }
            #expect(Set(keys.keys) == expected)
            seen.insert(packet.payloadType.description)
            if packet.payloadType == .trace {
                #expect(m.route == "D" && m.path == packet.path.bytes.map { Hex.encode([$0]) }.joined(separator: ","))
                #expect(packet.path.length.hopCount == 2, "the SNR each hop heard")
            }
        }
        #expect(seen.isSuperset(of: ["GRP_TXT", "ACK", "TRACE", "ADVERT"]), "heard: \(seen.sorted())")
    }

    /// The packet message is written without JSONEncoder: the same bytes as JSONEncoder with
    /// sorted keys gives, for every ASCII character and some beyond in the radio's name, with
    /// and without a path.
    @Test func theDirectWriterGivesJSONEncodersBytes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for name in [ascii, "Dak \u{1F4E1} \u{2028} é/\\\"", ""] {
            let origin = GatewayOrigin(name: name, publicKey: Self.origin.publicKey)
            for raw in ["0A4211223344AABBCCDD", "1501AA112233445566778899", "0E00A1B2C3D4"] {
                let message = try PacketMessage(heard: ReceivedPacket(snrX4: -7, rssi: -128, payload: try #require(Hex.decode(raw))),
                                                origin: origin, at: Self.instant)
                let written = GatewayJSON.encode(message)
                #expect(written == Array(try encoder.encode(message)), "\(String(decoding: written, as: UTF8.self))")
            }
        }
    }
}
