import MeshCodec
import MeshCrypto

/// The packets of the simulated mesh as they are on air, sealed as the firmware seals them,
/// so an app decoding LOG_RX_DATA (channel echoes, heard repeats) sees real packets.
enum AirPackets {
    /// A DM or room post to or from the radio: TXT_MSG sealed with the pair's ECDH secret.
    static func text(_ s: inout SimRadioState, peer: PublicKey, fromRadio: Bool, content: TextContent, route: AirPacket.Route, path: Path) -> AirPacket? {
        addressed(&s, peer: peer, fromRadio: fromRadio, type: .textMessage, plain: content.bytes, route: route, path: path)
    }

    /// A channel text, "name: text", sealed with the channel's secret.
    static func groupText(secret: ChannelSecret, timestamp: UInt32, line: [UInt8], path: Path) -> AirPacket? {
        let content = TextContent(timestamp: timestamp, text: line)
        guard let sealed = seal(content.bytes, secret.bytes) else { return nil }
        return AirPacket(route: .flood, payloadType: .groupText, path: path,
                         payload: GroupPayload(channelHash: secret.channelHash, sealed: sealed).bytes)
    }

    /// A node's answer to a flood packet of the radio's: a path-return carrying `extra`
    /// (the ACK, or a reply), flooded back.
    static func pathReturn(_ s: inout SimRadioState, from node: SimNode, extraType: AirPacket.PayloadType, extra: [UInt8], path: Path) -> AirPacket? {
        let returned = ReturnedPath(path: node.path, extraType: extraType, extra: extra)
        return addressed(&s, peer: node.publicKey, fromRadio: false, type: .path, plain: returned.bytes, route: .flood, path: path)
    }

    /// A reply sent direct: RESPONSE sealed with the pair's secret.
    static func response(_ s: inout SimRadioState, from key: PublicKey, data: [UInt8]) -> AirPacket? {
        addressed(&s, peer: key, fromRadio: false, type: .response, plain: data, route: .direct, path: emptyPath)
    }

    static func ack(_ code: AckCode) -> AirPacket {
        AirPacket(route: .direct, payloadType: .ack, path: emptyPath, payload: code.bytes)
    }

    /// An advert on its way: `packet`'s payload (key, timestamp, signature, app-data) under a new header and path.
    static func advert(_ packet: AdvertPacket, route: AirPacket.Route, path: Path) -> AirPacket {
        let timestamp = (0..<4).map { UInt8(truncatingIfNeeded: packet.timestamp >> (8 * $0)) }
        return AirPacket(route: route, payloadType: .advert, path: path,
                         payload: packet.publicKey.bytes + timestamp + packet.signature + packet.appData)
    }

    static let emptyPath = Path(length: PathLength(raw: 0), bytes: [])

    /// `hops` as a path of 1-byte hashes, for packets whose route is given by its bytes.
    static func path(_ hops: [UInt8]) -> Path {
        Path(length: PathLength(hops: min(hops.count, 63)) ?? PathLength(raw: 0), bytes: Array(hops.prefix(63)))
    }

    private static func addressed(_ s: inout SimRadioState, peer: PublicKey, fromRadio: Bool, type: AirPacket.PayloadType, plain: [UInt8],
                                  route: AirPacket.Route, path: Path) -> AirPacket? {
        guard let secret = s.sharedSecret(with: peer), let sealed = seal(plain, secret) else { return nil }
        let (dest, src) = fromRadio ? (peer.bytes[0], s.publicKey.bytes[0]) : (s.publicKey.bytes[0], peer.bytes[0])
        return AirPacket(route: route, payloadType: type, path: path, payload: AddressedPayload(destinationHash: dest, sourceHash: src, sealed: sealed).bytes)
    }

    private static func seal(_ plain: [UInt8], _ secret: [UInt8]) -> [UInt8]? {
        do {
            return try PacketCipher.seal(plain, secret: secret)
        } catch {
            // Secrets here are 16 or 32 bytes by construction; reaching this is a bug of the simulation.
            return nil
        }
    }
}
