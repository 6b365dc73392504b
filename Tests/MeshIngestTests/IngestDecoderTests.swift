import Foundation
import MeshCodec
import MeshCrypto
@testable import MeshGateway
@testable import MeshIngest
import MeshRegion
import Testing

/// Community messages into region records (Modules/MeshIngest/IngestDecoder.swift): golden
/// messages from MeshGateway's own encoder, numbers as strings or numbers, and every reject path.
@Suite(.timeLimit(.minutes(1))) struct IngestDecoderTests {
    let decoder = IngestDecoder(channels: try! IngestChannels(specs: ["#meshport"]))
    let receivedAt = Date(timeIntervalSince1970: 1_790_000_001)
    typealias F = IngestFixtures

    func hearing(_ payload: [UInt8], topic: String = F.topics.packets) throws -> Hearing {
        let record = decoder.decode(topic: topic, payload: payload, receivedAt: receivedAt)
        guard case .hearing(let hearing) = record else { Issue.record("not a hearing: \(record)"); throw CancellationError() }
        return hearing
    }

    func rejection(_ payload: [UInt8], topic: String = F.topics.packets) -> (RejectedMessage, IngestRejectionKind)? {
        let record = decoder.decode(topic: topic, payload: payload, receivedAt: receivedAt)
        guard case .rejected(let message, let kind) = record else { return nil }
        return (message, kind)
    }

    @Test func aGatewayPacketMessageRoundTripsIntoAHearing() throws {
        let raw = try #require(Hex.decode("0A4211223344AABBCCDD"))
        let hearing = try hearing(try F.packetMessage(raw))
        #expect(hearing.observerKey == F.observerKey.bytes && hearing.region == "AMS")
        #expect(hearing.heardAt == F.heardAt && hearing.direction == .rx && hearing.raw == raw)
        #expect(hearing.snr == 11.5 && hearing.rssi == -70)
        let decoded = try #require(hearing.decoded)
        #expect(decoded.packetHash == "164D94FF1BF7EBC0" && decoded.payloadType == 2 && decoded.routeType == 2)
        #expect(decoded.path == [0x11, 0x22, 0x33, 0x44] && decoded.facts.isEmpty)
    }

    @Test func aSignedAdvertBecomesANodeAdvert() throws {
        let raw = try F.advert()
        let decoded = try #require(try hearing(try F.packetMessage(raw)).decoded)
        #expect(decoded.packetHash == (try AirPacket(decoding: raw)).hashText && decoded.payloadType == 4)
        guard case .advert(let advert)? = decoded.facts.first else { Issue.record("no advert in \(decoded.facts)"); return }
        #expect(advert.key == F.node.publicKey && advert.name == "Hilltop" && advert.kind == .repeater)
        #expect(advert.latitude == 52.37 && advert.longitude == 4.89)
        #expect(advert.advertisedAt == Date(timeIntervalSince1970: 1_790_000_000))
    }

    @Test func aForgedAdvertIsRejectedWithItsReason() throws {
        let other = try Ed25519.KeyPair(seed: [UInt8](repeating: 9, count: 32))
        let forged = try F.advert(signer: other, claimedKey: F.node.publicKey)
        let (message, kind) = try #require(rejection(try F.packetMessage(forged)))
        #expect(kind == .forgedAdvert, "\(message.reason)")
        #expect(message.reason.contains("a signature that does not verify") && message.reason.contains(Hex.encode(F.node.publicKey).uppercased()))
    }

    @Test func publicAndHashtagChannelTextsAreDecrypted() throws {
        let onPublic = try hearing(try F.packetMessage(try F.channelText("Alice: hello mesh")))
        guard case .channelText(let text)? = onPublic.decoded?.facts.first else { Issue.record("no text"); return }
        #expect(text.channelName == "Public" && text.sender == "Alice" && text.text == "hello mesh")
        #expect(text.channelHash == ChannelSecret.publicChannel.channelHash && text.sentAt == Date(timeIntervalSince1970: 1_790_000_100))

        let onHashtag = try hearing(try F.packetMessage(try F.channelText("Bob: on the tag", secret: .hashtag("#meshport"))))
        guard case .channelText(let tagged)? = onHashtag.decoded?.facts.first else { Issue.record("no hashtag text"); return }
        #expect(tagged.channelName == "#meshport" && tagged.sender == "Bob" && tagged.text == "on the tag")
    }

    @Test func aTextOnAnUnknownChannelKeepsThePacketWithoutAText() throws {
        let secret = try #require(ChannelSecret(hex: "00112233445566778899AABBCCDDEEFF"))
        let hearing = try hearing(try F.packetMessage(try F.channelText("Eve: private", secret: secret)))
        #expect(hearing.decoded?.payloadType == 5 && hearing.decoded?.facts == [])
        let knowing = IngestDecoder(channels: try IngestChannels(specs: ["Team=00112233445566778899AABBCCDDEEFF"]))
        let record = knowing.decode(topic: F.topics.packets, payload: try F.packetMessage(try F.channelText("Eve: private", secret: secret)),
                                    receivedAt: receivedAt)
        guard case .hearing(let known) = record, case .channelText(let text)? = known.decoded?.facts.first else {
            Issue.record("the configured channel was not decrypted: \(record)"); return
        }
        #expect(text.channelName == "Team" && text.text == "private")
    }

    @Test func aTraceGivesItsTagHopsAndSNRs() throws {
        let hearing = try hearing(try F.packetMessage(try F.trace(tag: 0x0102_0304, hops: [0xAA, 0xBB], snrX4: [40, -6])))
        guard case .trace(let trace)? = hearing.decoded?.facts.first else { Issue.record("no trace"); return }
        #expect(trace.tag == 0x0102_0304 && trace.hops == [0xAA, 0xBB] && trace.hopSNRs == [10, -1.5])
    }

    @Test func aRawPacketThatDoesNotDecodeIsStillAHearing() throws {
        let key = F.observerKey.hex.uppercased()
        let json = #"{"origin_id":"\#(key)","timestamp":"2026-09-21T14:13:20+00:00","raw":"3F","SNR":5,"RSSI":-90}"#
        let hearing = try hearing(F.text(json))
        #expect(hearing.raw == [0x3F] && hearing.decoded == nil && hearing.snr == 5 && hearing.rssi == -90)
    }

    @Test func numbersMayBeStringsOrNumbersAndTimestampsVary() throws {
        let key = F.observerKey.hex.uppercased()
        for (snr, rssi, timestamp, expected) in [
            (#""-5.25""#, #""-100""#, "2026-09-21T14:13:20.250000+00:00", 1_790_000_000.25),
            ("-5.25", "-100", "2026-09-21T14:13:20Z", 1_790_000_000),
            ("-5.25", "-100.0", "2026-09-21T16:13:20+02:00", 1_790_000_000),
            (#""-5.25""#, #""-100""#, "2026-09-21T14:13:20.5", 1_790_000_000.5),
        ] {
            let json = #"{"origin_id":"\#(key)","timestamp":"\#(timestamp)","raw":"0E00A1B2C3D4","SNR":\#(snr),"RSSI":\#(rssi),"direction":"tx"}"#
            let hearing = try hearing(F.text(json))
            #expect(hearing.snr == -5.25 && hearing.rssi == -100 && hearing.direction == .tx)
            #expect(abs(hearing.heardAt.timeIntervalSince1970 - expected) < 0.000_01, "\(timestamp)")
        }
    }

    @Test func statusMessagesBecomeObserverReports() throws {
        let online = StatusMessage(status: "online", timestamp: "2026-09-21T14:13:20+00:00", origin: "Roof", originID: F.origin.id,
                                   model: "Heltec V3", firmwareVersion: "v1.17.1 (Build: 25-Nov-2025)", radio: "869.525,250.0,11,5",
                                   clientVersion: "meshport/1.0", stats: nil)
        let record = decoder.decode(topic: F.topics.status, payload: try GatewayJSON.encode(online), receivedAt: receivedAt)
        #expect(record == .observer(ObserverReport(key: F.observerKey.bytes, region: "AMS", name: "Roof", online: true,
                                                   reportedAt: Date(timeIntervalSince1970: 1_790_000_000), model: "Heltec V3",
                                                   firmware: "v1.17.1 (Build: 25-Nov-2025)", clientVersion: "meshport/1.0",
                                                   radio: "869.525,250.0,11,5")))
        let offline = try GatewayJSON.encode(StatusMessage.offline(origin: F.origin, at: Date(timeIntervalSince1970: 1_790_000_000)))
        guard case .observer(let report) = decoder.decode(topic: F.topics.status, payload: offline, receivedAt: receivedAt) else {
            Issue.record("offline is not a report"); return
        }
        #expect(!report.online && report.model == nil && report.statsJSON == nil)

        let withStats = #"{"status":"online","timestamp":"2026-09-21T14:13:20+00:00","origin":"Roof","origin_id":"\#(F.origin.id)","stats":{"uptime_secs":3600,"battery_mv":4100}}"#
        guard case .observer(let stats) = decoder.decode(topic: F.topics.status, payload: F.text(withStats), receivedAt: receivedAt) else {
            Issue.record("stats status is not a report"); return
        }
        #expect(stats.statsJSON == #"{"battery_mv":4100,"uptime_secs":3600}"#)
    }

    @Test func everyRejectPathSaysWhatAndWhere() throws {
        let key = F.observerKey.hex.uppercased()
        let good = #""origin_id":"\#(key)","timestamp":"2026-09-21T14:13:20+00:00""#
        let cases: [(String, String, IngestRejectionKind, String)] = [
            (F.topics.packets, "not json", .badJSON, "not JSON"),
            (F.topics.packets, "[1,2]", .badJSON, "an array, not a JSON object"),
            (F.topics.packets, #"{\#(good)}"#, .missingField, "field `raw` is missing"),
            (F.topics.packets, #"{\#(good),"raw":"XYZ"}"#, .notHex, "field `raw`"),
            (F.topics.packets, #"{\#(good),"raw":""}"#, .notHex, "field `raw`"),
            (F.topics.packets, #"{\#(good),"raw":12}"#, .wrongType, "field `raw` is a number, not a string"),
            (F.topics.packets, #"{\#(good),"raw":"0E00A1B2C3D4","SNR":true}"#, .wrongType, "field `SNR` is a boolean, not a number"),
            (F.topics.packets, #"{\#(good),"raw":"0E00A1B2C3D4","RSSI":"loud"}"#, .wrongType, "field `RSSI` is \"loud\", not a number"),
            (F.topics.packets, #"{\#(good),"raw":"0E00A1B2C3D4","RSSI":-70.5}"#, .wrongType, "field `RSSI` is -70.5, not a whole number"),
            (F.topics.packets, #"{\#(good),"raw":"0E00A1B2C3D4","direction":"up"}"#, .badValue, "field `direction`"),
            (F.topics.packets, #"{"origin_id":"\#(key)","timestamp":"yesterday","raw":"0E00A1B2C3D4"}"#, .badValue, "field `timestamp`"),
            (F.topics.packets, #"{"origin_id":"\#(String(repeating: "CD", count: 32))","timestamp":"2026-09-21T14:13:20Z","raw":"0E00"}"#,
             .keyMismatch, "is not the topic's key"),
            (F.topics.packets, #"{"origin_id":"nothex","timestamp":"2026-09-21T14:13:20Z","raw":"0E00"}"#, .notHex, "field `origin_id`"),
            ("meshcore/AMS/\(key)/raw", #"{\#(good),"raw":"0E00"}"#, .unknownTopic, "neither packets nor status"),
            ("meshcore/AMS/ABCD/packets", #"{\#(good),"raw":"0E00"}"#, .unknownTopic, "not 64 hex digits"),
            ("other/AMS/\(key)/packets", #"{\#(good),"raw":"0E00"}"#, .unknownTopic, "not meshcore/"),
            (F.topics.status, #"{\#(good),"status":"sleeping"}"#, .badValue, "field `status`"),
            (F.topics.status, #"{\#(good),"status":"online","stats":[1]}"#, .wrongType, "field `stats` is an array, not an object"),
            (F.topics.status, #"{\#(good),"status":"online","model":7}"#, .wrongType, "field `model` is a number"),
        ]
        for (topic, json, kind, reason) in cases {
            guard let (message, got) = rejection(F.text(json), topic: topic) else {
                Issue.record("accepted: \(topic) \(json)"); continue
            }
            #expect(got == kind, "\(json)")
            #expect(message.reason.contains(reason), "\(message.reason) lacks \(reason)")
            #expect(message.topic == topic && message.payload == F.text(json) && message.receivedAt == receivedAt)
        }
    }

    @Test func channelOptionsNeedAHashtagOrASecret() throws {
        #expect(throws: IngestOptionsError.self) { try IngestChannels(specs: ["Team"]) }
        #expect(throws: IngestOptionsError.self) { try IngestChannels(specs: ["Team=abc"]) }
        #expect(throws: IngestOptionsError.self) { try IngestChannels(specs: ["#"]) }
        let channels = try IngestChannels(specs: ["#hiking", "Team=00112233445566778899AABBCCDDEEFF"])
        #expect(channels.channels.map(\.name) == ["Public", "#hiking", "Team"])
        #expect(channels.channels[1].secret == .hashtag("#hiking"))
    }

    @Test func damagedMessagesAreRecordsNeverCrashes() throws {
        var random = SplitMix64(seed: 27)
        let good = try F.packetMessage(try F.channelText("Alice: hello mesh"))
        let marker = Array(#""raw":""#.utf8)
        let rawStart = (0...(good.count - marker.count)).first { Array(good[$0..<$0 + marker.count]) == marker }.map { $0 + marker.count }
        var kinds: [String: Int] = [:]
        for round in 0..<3000 {
            var payload = good
            // Flip bytes, cut the message short, or change a digit of `raw`, so the damage lands
            // in the JSON, the hex and the packet alike.
            switch round % 3 {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    payload[Int.random(in: 0..<payload.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                payload = Array(payload.prefix(Int.random(in: 0..<payload.count, using: &random)))
            default:
                let offset = try #require(rawStart) + 2 * Int.random(in: 0..<10, using: &random)
                let hexDigits = Array("0123456789ABCDEF".utf8)
                payload[offset] = hexDigits[Int.random(in: 0..<16, using: &random)]
            }
            switch decoder.decode(topic: F.topics.packets, payload: payload, receivedAt: receivedAt) {
            case .hearing(let hearing): kinds[hearing.decoded == nil ? "undecodable" : "hearing", default: 0] += 1
            case .observer: kinds["observer", default: 0] += 1
            case .rejected(let message, let kind):
                #expect(!message.reason.isEmpty && message.payload == payload)
                kinds[kind.rawValue, default: 0] += 1
            }
        }
        #expect(kinds["hearing", default: 0] > 0 && kinds["bad-json", default: 0] > 0, "\(kinds)")
    }
}
