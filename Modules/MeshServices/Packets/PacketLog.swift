import Foundation
import MeshCodec
import MeshStore

/// Keeps every packet the radio hears (LOG_RX_DATA) in the store's packet log, through the
/// coalescer (a busy mesh pushes hundreds a minute), and announces each as it comes.
struct PacketLog {
    let context: ServiceContext
    let now: @Sendable () -> Date

    /// Returns the store's error when the packet was kept without its channels and contacts;
    /// the caller says so (UnreadableStoreNotice), once for a run of such packets.
    func keep(_ received: ReceivedPacket) async -> (any Error)? {
        let (reader, radio) = (context.store.reader, context.radio)
        let time = now()
        let heard: HeardPacket
        var storeFailure: (any Error)?
        do {
            let classifier = PacketClassifier(channels: try reader.channelSlots(radio)) { hash in
                guard let prefix = KeyPrefix([hash]) else { return nil }
                return try reader.lookupContact(radio, prefix: prefix).contact?.publicKey
            }
            heard = try classifier.heard(received, at: time)
        } catch let error as CodecError {
            context.events.emit(.packetUndecodable(raw: received.payload, reason: "\(error)"))
            return nil
        } catch {
            // What the store knows only names the channel and the sender: a gateway whose store
            // fails still logs the packet and passes it on (its uplink reads these events).
            storeFailure = error
            do {
                heard = try PacketClassifier(channels: []).heard(received, at: time)
            } catch {
                context.events.emit(.packetUndecodable(raw: received.payload, reason: "\(error)"))
                return storeFailure
            }
        }
        context.events.emit(.packetHeard(heard))
        await context.store.record(radio, SampleBatch(packets: [heard]))
        return storeFailure
    }
}
