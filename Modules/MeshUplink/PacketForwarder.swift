import Foundation
import Logging
import MeshCodec
import MeshGateway
import MeshMQTT

/// Turns each heard packet into its community message and queues it on the MQTT client. It
/// runs in the uplink's packet task, not on the `Uplink` actor: a busy air gives thousands of
/// packets a second, and each hop through an actor costs more than making the message.
struct PacketForwarder: Sendable {
    let client: MQTTClient
    let topic: String
    let qos: MQTTQoS
    let origin: GatewayOrigin
    let target: UplinkTarget
    let tally: UplinkTally
    let logger: Logger
    let now: @Sendable () -> Date

    func forward(_ heard: ReceivedPacket) async {
        let message: PacketMessage
        do {
            message = try PacketMessage(heard: heard, origin: origin, at: now())
        } catch {
            tally.count { $0.packetsUndecodable += 1 }
            logger.warning("uplink to \(target): a heard packet was not sent: \(error)")
            return
        }
        do {
            try await client.publish(MQTTMessage(topic: topic, payload: GatewayJSON.encode(message), qos: qos))
            tally.count { $0.packetsQueued += 1 }
        } catch {
            tally.count { $0.publishFailures += 1 }
            logger.warning("uplink to \(target): a heard packet could not be queued: \(error)")
        }
    }
}
