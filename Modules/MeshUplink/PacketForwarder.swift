import Foundation
import Logging
import MeshCodec
import MeshGateway
import MeshMQTT

/// Turns each heard packet, as the packet log decoded it (`ClientEvent.packetHeard`), into its
/// community message and queues it on the MQTT client. It runs in the uplink's packet task,
/// not on the `Uplink` actor: a busy air gives thousands of packets a second, and each hop
/// through an actor costs more than making the message.
struct PacketForwarder: Sendable {
    let client: MQTTClient
    let topic: String
    let qos: MQTTQoS
    let origin: GatewayOrigin
    let target: UplinkTarget
    let tally: UplinkTally
    let logger: Logger

    /// `packet`, decoded from `raw`, with its `hash`, heard at `instant`.
    func forward(_ packet: AirPacket, raw: [UInt8], hash: [UInt8], snrX4: Int8, rssi: Int8, at instant: Date) async {
        let message = PacketMessage(packet: packet, raw: raw, snrX4: snrX4, rssi: rssi, origin: origin, at: instant, hash: hash)
        do {
            try await client.publish(MQTTMessage(topic: topic, payload: GatewayJSON.encode(message), qos: qos))
            tally.count { $0.packetsQueued += 1 }
        } catch {
            tally.count { $0.publishFailures += 1 }
            logger.warning("uplink to \(target): a heard packet could not be queued: \(error)")
        }
    }

    /// A LOG_RX_DATA push that is no air packet: counted and said, not sent.
    func undecodable(raw: [UInt8], reason: String) {
        tally.count { $0.packetsUndecodable += 1 }
        logger.warning("uplink to \(target): a heard packet was not sent: \(GatewayError.undecodablePacket(raw: Hex.encode(raw).uppercased(), reason: reason))")
    }
}
