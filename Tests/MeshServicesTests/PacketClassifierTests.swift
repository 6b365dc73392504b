import Foundation
import GRDB
import MeshCodec
import MeshCrypto
import MeshServices
import MeshSim
import MeshStore
import Testing

/// What a heard packet is (PacketKind, PacketClassifier) from its bytes and what the store
/// knows, and the client keeping every LOG_RX_DATA in the packet log.
@Suite(.timeLimit(.minutes(2))) struct PacketClassifierTests {
    static let at = Date(timeIntervalSince1970: 1_790_000_000)
    let publicChannel = ChannelInfo(index: 0, name: "Public", secret: .publicChannel)
    let club = ChannelInfo(index: 3, name: "Club", secret: ChannelSecret([UInt8](repeating: 7, count: 16))!)

    func heard(_ packet: AirPacket, _ classifier: PacketClassifier) throws -> HeardPacket {
        try classifier.heard(ReceivedPacket(snrX4: 22, rssi: -77, payload: try packet.encode()), at: Self.at)
    }

    func groupText(_ secret: ChannelSecret) throws -> AirPacket {
        let sealed = try PacketCipher.seal(TextContent(timestamp: 1, text: Array("Ash: hi".utf8)).bytes, secret: secret.bytes)
        return AirPacket(route: .flood, payloadType: .groupText, payload: GroupPayload(channelHash: secret.channelHash, sealed: sealed).bytes)
    }

    @Test func aChannelTextIsOnTheSlotWhoseSecretOpensIt() throws {
        let classifier = PacketClassifier(channels: [publicChannel, club])
        let onPublic = try heard(try groupText(.publicChannel), classifier)
        #expect(onPublic.channel == 0 && PacketKind(onPublic) == .groupText(channel: 0, channelHash: ChannelSecret.publicChannel.channelHash))
        #expect(try heard(try groupText(club.secret), classifier).channel == 3)
        // A channel the radio does not have: only its hash is known.
        let stranger = ChannelSecret([UInt8](repeating: 9, count: 16))!
        let unknown = try heard(try groupText(stranger), classifier)
        #expect(PacketKind(unknown) == .groupText(channel: nil, channelHash: stranger.channelHash))
        // The right hash byte with a MAC that does not open is not the channel's.
        var forged = try groupText(.publicChannel)
        forged.payload[1] ^= 0xFF
        #expect(try heard(forged, classifier).channel == nil)
    }

    @Test func advertsAcksTracesAndAddressedPackets() throws {
        let alder = PublicKey([UInt8](repeating: 0xA1, count: 32))!
        let classifier = PacketClassifier(channels: []) { $0 == 0xA1 ? alder : nil }
        let advert = AdvertPacket(publicKey: alder, timestamp: 5, signature: [UInt8](repeating: 1, count: 64),
                                  appData: try AdvertAppData(type: .chat, name: "Alder").encode())
        let a = try classifier.heard(ReceivedPacket(snrX4: 8, rssi: -60, payload: advert.encode()), at: Self.at)
        #expect(PacketKind(a) == .advert(node: alder, name: "Alder") && a.node == alder && a.snr == 2)

        let ack = try heard(AirPacket(route: .direct, payloadType: .ack, payload: [1, 2, 3, 4]), classifier)
        #expect(PacketKind(ack) == .ack(AckCode(bytes: [1, 2, 3, 4])!) && ack.node == nil)
        let trace = try heard(AirPacket(route: .direct, payloadType: .trace, payload: [0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0, 0, 0xAB]), classifier)
        #expect(PacketKind(trace) == .trace(tag: 0x1234_5678))

        let text = try heard(AirPacket(route: .flood, payloadType: .textMessage, payload: [0x42, 0xA1, 9, 9, 9]), classifier)
        #expect(PacketKind(text) == .text(destination: 0x42, source: 0xA1) && text.node == alder)
        let path = try heard(AirPacket(route: .flood, payloadType: .path, payload: [0xA1, 0x42, 9, 9, 9]), classifier)
        #expect(PacketKind(path) == .pathReturn(destination: 0xA1, source: 0x42) && path.node == nil)
        let anonymous = try heard(AirPacket(route: .flood, payloadType: .anonRequest, payload: [0x42] + alder.bytes + [9, 9, 9]), classifier)
        #expect(PacketKind(anonymous) == .anonymousRequest(destination: 0x42, sender: alder) && anonymous.node == alder)
        // Too short for its layout: nothing more to tell.
        #expect(PacketKind(try heard(AirPacket(route: .direct, payloadType: .ack, payload: [1]), classifier)) == .other)
    }

    @Test func bytesThatAreNoPacketSaySo() {
        #expect(throws: CodecError.self) {
            try PacketClassifier(channels: []).heard(ReceivedPacket(snrX4: 0, rssi: 0, payload: [0x11, 0xC1, 0xAA]), at: Self.at)
        }
    }

    @Test func theJSONCarriesTheKindAndTheCommunityHash() throws {
        let p = try heard(try groupText(.publicChannel), PacketClassifier(channels: [publicChannel]))
        let json = PacketJSON(p)
        #expect(json.kind == "groupText" && json.channel == 0 && json.payloadType == "grouptext" && json.route == "flood")
        #expect(json.hash == p.packet.hashText && json.raw == Hex.encode(p.raw) && json.snr == 5.5 && json.rssi == -77 && json.id == nil)
        #expect(PacketJSON.payloadType(named: "GroupText") == .groupText && PacketJSON.payloadType(named: "dragon") == nil)
        let line = try EventJSON(.packet(json)).line()
        #expect(try JSONDecoder().decode(EventJSON.self, from: Data(line.utf8)) == EventJSON(.packet(json)))
    }

    /// The packet log reads the channel slots from a cache (ChannelSlotCache.swift): a slot
    /// set, removed, or changed on the radio and synced must reach the next heard packet.
    @Test func theLogSeesEveryChannelChange() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        let channels = ChannelsService(context: try await client.connect())
        let secret = ChannelSecret([UInt8](repeating: 5, count: 16))!
        let raw = try groupText(secret).encode()
        func slotOfNextHearing() async -> UInt8? {
            let events = client.events.subscribe()
            await h.radio.hear(ReceivedPacket(snrX4: 4, rssi: -90, payload: raw), at: await h.radio.now)
            for await case let .packetHeard(p) in events where p.raw == raw { return p.channel }
            Issue.record("the event stream ended before the packet was heard")
            return nil
        }
        #expect(await slotOfNextHearing() == nil, "no slot has the secret yet")
        let slot = try await channels.join(name: "Crew", secret: secret)
        #expect(await slotOfNextHearing() == slot.index, "set")
        try await channels.remove(slot.index)
        #expect(await slotOfNextHearing() == nil, "removed")
        _ = await h.radio.handle(.setChannel(ChannelInfo(index: slot.index, name: "Crew", secret: secret)))
        try await channels.refresh()
        #expect(await slotOfNextHearing() == slot.index, "changed on the radio, then synced")
        try await client.disconnect()
    }

    /// Bytes that are no air packet: announced as such (the uplink counts them), shown as a
    /// problem, not logged.
    @Test func aHeardPacketThatIsNoMeshCorePacketIsAProblem() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        let events = client.events.subscribe()
        _ = try await client.connect()
        await h.radio.hear(ReceivedPacket(snrX4: 0, rssi: -100, payload: [0xFF]), at: await h.radio.now)
        for await event in events {
            guard case let .packetUndecodable(raw, _) = event else { continue }
            #expect(raw == [0xFF])
            #expect(event.problemText?.hasPrefix("The radio heard a packet that is not a MeshCore packet, so it is not logged: ") == true)
            break
        }
        try await client.disconnect()
    }

    /// A store that cannot be read (its contacts table gone) costs a heard packet only its
    /// sender: the packet is still announced, which is what the uplink sends on, and the
    /// problem is said.
    @Test func aHeardPacketIsAnnouncedWhenTheStoreCannotBeRead() async throws {
        let h = try ClientHarness()
        let client = try h.client()
        let events = client.events.subscribe()
        _ = try await client.connect()
        let other = try DatabaseQueue(path: h.store.path)
        try await other.write { try $0.execute(sql: "ALTER TABLE contacts RENAME TO contacts_elsewhere") }
        // Two texts need a contact lookup, which fails; the ACK after them needs none, so the
        // store reads for it and the run of failures ends.
        let sources: [UInt8] = [0xA1, 0xA2]
        let texts = try sources.map { try AirPacket(route: .flood, payloadType: .textMessage, payload: [0x42, $0, 9, 9, 9]).encode() }
        let ack = try AirPacket(route: .direct, payloadType: .ack, payload: [1, 2, 3, 4]).encode()
        for bytes in texts + [ack] { await h.radio.hear(ReceivedPacket(snrX4: 4, rssi: -90, payload: bytes), at: await h.radio.now) }
        var problems: [String] = []
        var announced: [HeardPacket] = []
        for await event in events {
            if case let .packetHeard(p) = event, p.raw != ack { announced.append(p) }
            guard case let .problem(said) = event else { continue }
            problems.append(said)
            if said.hasPrefix("The store reads") { break }
        }
        try await other.write { try $0.execute(sql: "ALTER TABLE contacts_elsewhere RENAME TO contacts") }
        try await client.disconnect()
        #expect(announced.map(\.raw) == texts, "not every text packet was announced")
        #expect(zip(announced, sources).allSatisfy { p, source in p.node == nil && PacketKind(p) == .text(destination: 0x42, source: source) })
        // Said once for the run of two, and once when it ended: not once a packet.
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.hasPrefix("Heard packets are kept without their channel and sender: reading the radio's channels and contacts failed: ") == true,
                "\(problems.first ?? "no problem was said")")
        #expect(problems.last == "The store reads the radio's channels and contacts again: 2 heard packets were kept without their channel and sender meanwhile.")
    }

    /// MeshSim's default mesh: the radio hears adverts of its contacts and chatter on Public;
    /// each is announced as classified and lands in the packet log.
    @Test func theClientLogsWhatTheSimulatedRadioHears() async throws {
        let h = try ClientHarness()
        let pump = h.pump()
        defer { pump.cancel() }
        let client = try h.client()
        let events = client.events.subscribe()
        let context = try await client.connect()
        var heard: [HeardPacket] = []
        var (adverts, publicTexts) = (0, 0)
        for await case let .packetHeard(p) in events {
            heard.append(p)
            switch PacketKind(p) {
            case let .advert(node, name):
                let contact = try h.store.reader.contact(context.radio, key: node)
                #expect(contact == nil || contact?.name == name, "advert of \(node.prefix(4).hex) named \(name ?? "-")")
                adverts += 1
            case .groupText(channel: 0, _): publicTexts += 1
            default: break
            }
            if adverts >= 1 && publicTexts >= 1 { break }
        }
        try await client.disconnect()
        let stored = try h.store.reader.packets(context.radio, limit: 1_000).packets
        #expect(stored.count >= heard.count)
        #expect(Set(stored.map(\.raw)).isSuperset(of: heard.map(\.raw)))
        #expect(try h.store.reader.packets(context.radio, PacketFilter(payloadType: .advert)).packets.count >= 1)
    }
}
