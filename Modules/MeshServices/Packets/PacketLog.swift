import Foundation
import MeshCodec
import MeshStore

/// Keeps every packet the radio hears (LOG_RX_DATA) in the store's packet log, through the
/// coalescer (a busy mesh pushes hundreds a minute), and announces each as it comes.
struct PacketLog {
    let context: ServiceContext
    let now: @Sendable () -> Date

    func keep(_ received: ReceivedPacket) async {
        let (reader, radio) = (context.store.reader, context.radio)
        let heard: HeardPacket
        do {
            let classifier = PacketClassifier(channels: try reader.channelSlots(radio)) { hash in
                guard let prefix = KeyPrefix([hash]) else { return nil }
                return try reader.lookupContact(radio, prefix: prefix).contact?.publicKey
            }
            heard = try classifier.heard(received, at: now())
        } catch let error as CodecError {
            context.events.emit(.packetUndecodable(raw: received.payload, reason: "\(error)"))
            return
        } catch {
            context.events.emit(.problem("A heard packet is not logged: reading the radio's channels and contacts failed: \(error)."))
            return
        }
        context.events.emit(.packetHeard(heard))
        await context.store.record(radio, SampleBatch(packets: [heard]))
    }
}
