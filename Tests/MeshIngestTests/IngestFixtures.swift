import Foundation
import MeshCodec
import MeshCrypto
@testable import MeshGateway
import MeshIngest
import MeshRegion

/// Messages as a Meshport gateway publishes them (MeshGateway's encoder), and air packets to
/// put in them: a signed advert, a Public channel text, a trace.
enum IngestFixtures {
    static let observerKey = PublicKey([UInt8](repeating: 0xAB, count: 32))!
    static let origin = GatewayOrigin(name: "Roof", publicKey: observerKey)
    static let topics = try! GatewayTopics(region: "AMS", publicKey: observerKey)
    static let heardAt = Date(timeIntervalSince1970: 1_790_000_000.25)
    static let node = try! Ed25519.KeyPair(seed: [UInt8](repeating: 7, count: 32))

    static func packetMessage(_ raw: [UInt8], snrX4: Int8 = 46, rssi: Int8 = -70, at instant: Date = heardAt) throws -> [UInt8] {
        try GatewayJSON.encode(PacketMessage(heard: ReceivedPacket(snrX4: snrX4, rssi: rssi, payload: raw), origin: origin, at: instant))
    }

    static func advert(name: String = "Hilltop", type: NodeType = .repeater, latitude: Double? = 52.37, longitude: Double? = 4.89,
                       timestamp: UInt32 = 1_790_000_000, signer: Ed25519.KeyPair = node, claimedKey: [UInt8]? = nil) throws -> [UInt8] {
        let position = latitude.flatMap { lat in longitude.map { Coordinates(latitude: lat, longitude: $0) } }
        let appData = try AdvertAppData(type: type, position: position, name: name).encode()
        var packet = AdvertPacket(publicKey: PublicKey(claimedKey ?? signer.publicKey)!, timestamp: timestamp, signature: [], appData: appData)
        packet.signature = signer.sign(packet.signedMessage)
        return packet.encode()
    }

    static func channelText(_ line: String, secret: ChannelSecret = .publicChannel, timestamp: UInt32 = 1_790_000_100,
                            hops: [UInt8] = [0x11, 0x22]) throws -> [UInt8] {
        let content = TextContent(timestamp: timestamp, text: Array(line.utf8))
        let sealed = try PacketCipher.seal(content.bytes, secret: secret.bytes)
        let payload = GroupPayload(channelHash: secret.channelHash, sealed: sealed).bytes
        return try AirPacket(route: .flood, payloadType: .groupText, path: Path(hops: hops.map { [$0] })!, payload: payload).encode()
    }

    static func trace(tag: UInt32, hops: [UInt8], snrX4: [Int8]) throws -> [UInt8] {
        var payload = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * UInt32($0))) } + [0, 0, 0, 0, 0]
        payload += hops
        let path = Path(hops: snrX4.map { [UInt8(bitPattern: $0)] })!
        return try AirPacket(route: .direct, payloadType: .trace, path: path, payload: payload).encode()
    }

    static func text(_ json: String) -> [UInt8] { Array(json.utf8) }
}
