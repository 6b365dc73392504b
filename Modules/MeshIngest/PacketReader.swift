import Foundation
import MeshCodec
import MeshCrypto
import MeshRegion

/// What the region can read from one air packet (`raw`): its header facts and hash, a signed
/// advert, a group text on a known channel, a trace. Pure: no I/O, no clock.
enum PacketReader {
    /// Nil when `raw` is not an air packet (kept raw by the caller); throws for an advert whose
    /// signature does not verify.
    static func read(_ raw: [UInt8], channels: IngestChannels) throws(IngestRejection) -> DecodedPacket? {
        let packet: AirPacket
        do {
            packet = try AirPacket(decoding: raw)
        } catch {
            return nil   // undecodable: the hearing keeps the raw bytes with `decoded` nil
        }
        var facts: [PacketFact] = []
        switch packet.payloadType {
        case .advert:
            if let found = try advert(raw) { facts.append(.advert(found)) }
        case .groupText:
            if let found = channelText(packet.payload, channels: channels) { facts.append(.channelText(found)) }
        case .trace:
            if let found = trace(packet) { facts.append(.trace(found)) }
        default:
            break
        }
        return DecodedPacket(packetHash: packet.hashText, payloadType: packet.payloadType.rawValue, routeType: packet.route.rawValue,
                             payloadVersion: packet.version, path: packet.path.bytes, facts: facts)
    }

    /// A signed advert; nil when its layout does not read (too short, bad app-data).
    static func advert(_ raw: [UInt8]) throws(IngestRejection) -> NodeAdvert? {
        let packet: AdvertPacket
        let appData: AdvertAppData
        do {
            packet = try AdvertPacket(decoding: raw)
            appData = try AdvertAppData(decoding: packet.appData)
        } catch {
            return nil   // not a readable advert: the packet is kept without the fact
        }
        guard Ed25519.verify(signature: packet.signature, message: packet.signedMessage, publicKey: packet.publicKey.bytes) else {
            throw IngestRejection(.forgedAdvert, "the advert of \(packet.publicKey.hex.uppercased()) has a signature that does not verify: forged or damaged")
        }
        return NodeAdvert(key: packet.publicKey.bytes, name: appData.name, kind: kind(appData.type),
                          latitude: appData.position.map { Double($0.latitudeE6) / 1_000_000 },
                          longitude: appData.position.map { Double($0.longitudeE6) / 1_000_000 },
                          advertisedAt: Date(timeIntervalSince1970: TimeInterval(packet.timestamp)))
    }

    static func kind(_ type: NodeType) -> NodeAdvert.Kind {
        switch type {
        case .chat: .chat
        case .repeater: .repeater
        case .room: .room
        case .sensor: .sensor
        default: .unknown
        }
    }

    /// The text of a GRP_TXT on a channel the worker knows; nil for other channels.
    static func channelText(_ payload: [UInt8], channels: IngestChannels) -> ChannelText? {
        let group: GroupPayload
        do {
            group = try GroupPayload(decoding: payload)
        } catch {
            return nil   // too short to carry a channel hash and a MAC
        }
        for channel in channels.candidates(hash: group.channelHash) {
            let content: TextContent
            do {
                content = try TextContent(decoding: try PacketCipher.open(group.sealed[...], secret: channel.secret.bytes))
            } catch {
                continue   // a MAC that does not match: another channel with the same hash byte
            }
            let line = String(decoding: content.text, as: UTF8.self)
            var sender: String?
            var text = line
            if let separator = line.range(of: ": ") {
                sender = String(line[..<separator.lowerBound])
                text = String(line[separator.upperBound...])
            }
            return ChannelText(channelName: channel.name, channelHash: group.channelHash, sender: sender, text: text,
                               sentAt: Date(timeIntervalSince1970: TimeInterval(content.timestamp)))
        }
        return nil
    }

    /// A trace: tag, auth code and flags, then the hop hashes; its path holds the SNR (× 4)
    /// each hop measured so far (Modules/MeshSim/SimHandler+Air.swift builds the same layout).
    static func trace(_ packet: AirPacket) -> TraceReport? {
        let payload = packet.payload
        guard payload.count >= 9 else { return nil }
        let tag = (0..<4).reduce(UInt32(0)) { $0 | UInt32(payload[$1]) << (8 * UInt32($1)) }
        return TraceReport(tag: tag, hops: Array(payload[9...]),
                           hopSNRs: packet.path.bytes.map { Double(Int8(bitPattern: $0)) / 4 })
    }
}
