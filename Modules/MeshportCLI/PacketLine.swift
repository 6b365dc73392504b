import MeshCodec
import MeshServices
import MeshStore

/// One heard packet as a line of text (`packets`, `listen`).
struct PacketLine: Sendable {
    let name: @Sendable (PublicKey) -> String?

    /// "10:31:02  SNR 6.25 dB  RSSI -71 dBm  ADVERT flood 2 hops  7C7E12F3F9673C0A  advert of Alder (ab12cd34)"
    func text(_ heard: HeardPacket) -> String {
        let p = heard.packet
        let route = p.route.isFlood ? "flood" : "direct"
        let hops = p.path.length.hopCount
        return "\(Describe.clock(heard.heardAt))  SNR \(Describe.seconds(heard.snr)) dB  RSSI \(heard.rssi) dBm  \(p.payloadType) \(route)"
            + (hops > 0 ? " \(hops) hop\(hops == 1 ? "" : "s")" : "") + "  \(p.hashText)  \(what(heard))"
    }

    func what(_ heard: HeardPacket) -> String {
        let from = heard.node.map { key in " from \(name(key) ?? key.prefix(4).hex)" } ?? ""
        switch PacketKind(heard) {
        case let .advert(key, advertName): return "advert of \(advertName ?? name(key) ?? "a node") (\(key.prefix(4).hex))"
        case let .groupText(channel, hash): return "channel text " + (channel.map { "on #\($0)" } ?? "on channel hash \(Hex.encode([hash]))")
        case let .groupData(channel, hash): return "channel data " + (channel.map { "on #\($0)" } ?? "on channel hash \(Hex.encode([hash]))")
        case let .ack(code): return "ACK \(code)"
        case let .pathReturn(d, s): return "path return to \(Hex.encode([d])) from \(Hex.encode([s]))" + from
        case let .trace(tag): return "trace \(String(tag, radix: 16))"
        case let .request(d, _): return "request to \(Hex.encode([d]))" + from
        case let .response(d, _): return "response to \(Hex.encode([d]))" + from
        case let .text(d, _): return "text to \(Hex.encode([d]))" + from
        case let .anonymousRequest(d, sender): return "anonymous request to \(Hex.encode([d])) from \(name(sender) ?? sender.prefix(4).hex)"
        case .other: return "other"
        }
    }
}
