import MeshCodec
import MeshStore

/// What a heard packet is, as far as Meshport can tell from its bytes and what the store
/// knew when it came (the radio's channel secrets, its contacts). Addressed packets name
/// their ends by the first byte of each key only.
public enum PacketKind: Hashable, Sendable {
    /// A node announcing itself: its key and, when the advert carries one, its name.
    case advert(node: PublicKey, name: String?)
    /// A channel text: `channel` is the radio's slot whose secret opens it; nil when none
    /// does (then only the channel hash, the first byte of its secret's SHA-256, is known).
    case groupText(channel: UInt8?, channelHash: UInt8)
    case groupData(channel: UInt8?, channelHash: UInt8)
    case ack(AckCode)
    /// A returned path (PATH), from `source` to `destination`.
    case pathReturn(destination: UInt8, source: UInt8)
    case trace(tag: UInt32)
    case request(destination: UInt8, source: UInt8)
    case response(destination: UInt8, source: UInt8)
    case text(destination: UInt8, source: UInt8)
    /// A request from a node the destination may not know yet (a login): the sender's whole key.
    case anonymousRequest(destination: UInt8, sender: PublicKey)
    /// A payload type with nothing more to tell (multipart, control, raw custom), or bytes
    /// that do not fit their type's layout.
    case other

    /// Reads the kind off the packet; `channel` is the slot found when it was heard.
    public init(_ heard: HeardPacket) {
        let packet = heard.packet
        let payload = packet.payload
        switch packet.payloadType {
        case .advert:
            // Bytes that do not fit the layout are a kind of their own (`other`), not a failure:
            // the packet is logged either way. App-data that does not decode only loses the name.
            guard let advert = try? AdvertPacket(decoding: heard.raw) else { self = .other; return }
            self = .advert(node: advert.publicKey, name: (try? AdvertAppData(decoding: advert.appData))?.name)
        case .groupText, .groupData:
            guard let hash = payload.first else { self = .other; return }
            self = packet.payloadType == .groupText ? .groupText(channel: heard.channel, channelHash: hash)
                : .groupData(channel: heard.channel, channelHash: hash)
        case .ack:
            guard let code = AckCode(bytes: Array(payload.prefix(4))) else { self = .other; return }
            self = .ack(code)
        case .trace:
            guard payload.count >= 4 else { self = .other; return }
            self = .trace(tag: payload.prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) })
        case .path, .request, .response, .textMessage:
            guard payload.count >= 2 else { self = .other; return }
            let (destination, source) = (payload[0], payload[1])
            switch packet.payloadType {
            case .path: self = .pathReturn(destination: destination, source: source)
            case .request: self = .request(destination: destination, source: source)
            case .response: self = .response(destination: destination, source: source)
            default: self = .text(destination: destination, source: source)
            }
        case .anonRequest:
            guard payload.count >= 1 + PublicKey.size, let sender = PublicKey(Array(payload[1...PublicKey.size])) else { self = .other; return }
            self = .anonymousRequest(destination: payload[0], sender: sender)
        default:
            self = .other
        }
    }
}
