import Foundation
import MeshCodec
import MeshCrypto
import MeshStore

/// Turns a LOG_RX_DATA push into the packet log's entry: decodes the packet and finds what
/// needs the store's knowledge, given as values: the channel slot whose secret opens a
/// group packet (hash and MAC both match), and the node it came from.
public struct PacketClassifier: Sendable {
    /// The radio's channel slots (empty ones are skipped).
    public var channels: [ChannelInfo]
    /// The contact whose key starts with a sender's hash byte, when exactly one does.
    public var contactByHash: @Sendable (UInt8) throws -> PublicKey?

    public init(channels: [ChannelInfo], contactByHash: @escaping @Sendable (UInt8) throws -> PublicKey? = { _ in nil }) {
        self.channels = channels
        self.contactByHash = contactByHash
    }

    /// Throws the codec's error when the bytes are no air packet, or what `contactByHash` throws.
    public func heard(_ received: ReceivedPacket, at time: Date) throws -> HeardPacket {
        var heard = try HeardPacket(heardAt: time, snrX4: received.snrX4, rssi: received.rssi, raw: received.payload)
        let packet = heard.packet
        switch packet.payloadType {
        case .groupText, .groupData:
            heard.channel = channel(opening: packet.payload)
        case .advert:
            if case let .advert(node, _) = PacketKind(heard) { heard.node = node }
        case .anonRequest:
            if case let .anonymousRequest(_, sender) = PacketKind(heard) { heard.node = sender }
        case .textMessage, .request, .response, .path:
            if packet.payload.count >= 2 { heard.node = try contactByHash(packet.payload[1]) }
        default:
            break
        }
        return heard
    }

    /// The slot whose secret has the payload's channel hash and opens its MAC.
    private func channel(opening payload: [UInt8]) -> UInt8? {
        guard let hash = payload.first else { return nil }
        for info in channels where !info.isEmpty && info.secret.channelHash == hash {
            // A MAC mismatch means another channel shares the hash byte: try the next.
            if (try? PacketCipher.open(payload[1...], secret: info.secret.bytes)) != nil { return info.index }
        }
        return nil
    }
}
