import MeshCodec
import MeshCrypto

/// A packet reaching the radio over the shared air of several gateways (SimAir.swift): logged
/// as LOG_RX_DATA, then, the first time its hash comes by, read as the firmware reads what it
/// receives: a channel text on one of the radio's channels is queued, an advert goes through
/// the auto-add rules. Anything else (other channels, packets for other nodes) is only logged.
extension SimHandler {
    /// How many packet hashes the radio remembers, as the firmware's seen-packets table.
    static let seenPackets = 128

    static func received(_ s: inout SimRadioState, _ log: ReceivedPacket, at: Duration) -> [RadioFrame] {
        let out: [RadioFrame] = [.push(.logRxData(log))]
        let packet: AirPacket
        do {
            packet = try AirPacket(decoding: log.payload)
        } catch {
            s.problems.append("the shared air delivered a packet the radio cannot read: \(error)")
            return out
        }
        let hash = packet.hash()
        guard !s.packetsSeen.contains(hash) else { return out }
        s.packetsSeen.append(hash)
        if s.packetsSeen.count > seenPackets { s.packetsSeen.removeFirst() }
        s.stats.received += 1
        if packet.route.isFlood { s.stats.receivedFlood += 1 } else { s.stats.receivedDirect += 1 }
        switch packet.payloadType {
        case .groupText: return out + channelText(&s, packet, log: log)
        case .advert: return out + advert(&s, log, path: packet.path, at: at)
        default: return out
        }
    }

    /// Queued on the first channel whose hash and secret open it; on none, only logged.
    private static func channelText(_ s: inout SimRadioState, _ packet: AirPacket, log: ReceivedPacket) -> [RadioFrame] {
        let group: GroupPayload
        do {
            group = try GroupPayload(decoding: packet.payload)
        } catch {
            s.problems.append("a channel text on the shared air is malformed: \(error)")
            return []
        }
        for channel in s.channels where !channel.isEmpty && channel.secret.channelHash == group.channelHash {
            let content: TextContent
            do {
                content = try TextContent(decoding: PacketCipher.open(group.sealed[...], secret: channel.secret.bytes))
            } catch {
                continue   // another channel with the same 1-byte hash: its secret does not open it
            }
            s.stats.lastSNRx4 = log.snrX4
            s.offlineQueue.push(.channelMessage(ChannelMessage(format: s.messageFormat, snrX4: log.snrX4, channelIndex: channel.index,
                                                              pathLength: packet.path.length, senderTimestamp: content.timestamp,
                                                              text: String(decoding: content.text, as: UTF8.self))))
            return [.push(.messageWaiting)]
        }
        return []
    }

    private static func advert(_ s: inout SimRadioState, _ log: ReceivedPacket, path: Path, at: Duration) -> [RadioFrame] {
        let advert: AdvertPacket, app: AdvertAppData
        do {
            advert = try AdvertPacket(decoding: log.payload)
            app = try AdvertAppData(decoding: advert.appData)
        } catch {
            s.problems.append("an advert on the shared air is malformed: \(error)")
            return []
        }
        return advertHeard(&s, HeardAdvertInfo(publicKey: advert.publicKey, type: app.type, name: app.name ?? SimIdentity.defaultName(advert.publicKey),
                                                position: app.position ?? .zero, timestamp: advert.timestamp, hops: path.hops.count, path: path),
                           at: at)
    }
}
