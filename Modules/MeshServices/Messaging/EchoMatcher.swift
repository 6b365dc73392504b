import MeshCodec
import MeshCrypto

/// Recognises copies of one of our outgoing packets among the packets the radio hears
/// (LOG_RX_DATA): each copy is a repeater passing it on, counted as a heard repeat.
enum EchoMatcher: Sendable {
    /// A DM. The client cannot open it (the ECDH secret never leaves the radio), so it is
    /// matched by what is in clear: a TXT_MSG whose destination hash is the contact's first
    /// key byte and whose source hash is ours, heard while the message is tracked (from its
    /// first SENT until `RetryPolicy.echoWindow` after it settles). Each attempt seals a
    /// different payload (the attempt number is inside), and every copy of any of them counts.
    /// Another node with our first key byte messaging the same contact at the same moment
    /// would be miscounted; one byte is all the packet says.
    case direct(destinationHash: UInt8, sourceHash: UInt8)
    /// A channel message: a GRP_TXT with the channel's hash that opens with its secret and
    /// holds exactly our timestamp and "<name>: <text>" line.
    case channel(secret: ChannelSecret, timestamp: UInt32, line: [UInt8])

    /// Whether the raw air packet of a LOG_RX_DATA push is one of ours. Packets that do not
    /// decode, or do not open, are someone else's: not an error.
    func matches(_ raw: [UInt8]) -> Bool {
        let packet: AirPacket
        do { packet = try AirPacket(decoding: raw) } catch { return false }
        switch self {
        case let .direct(destination, source):
            guard packet.payloadType == .textMessage else { return false }
            do {
                let payload = try AddressedPayload(decoding: packet.payload)
                return payload.destinationHash == destination && payload.sourceHash == source
            } catch {
                return false
            }
        case let .channel(secret, timestamp, line):
            guard packet.payloadType == .groupText else { return false }
            do {
                let group = try GroupPayload(decoding: packet.payload)
                guard group.channelHash == secret.channelHash else { return false }
                let content = try TextContent(decoding: PacketCipher.open(group.sealed[...], secret: secret.bytes))
                return content.timestamp == timestamp && content.text == line
            } catch {
                return false
            }
        }
    }
}
