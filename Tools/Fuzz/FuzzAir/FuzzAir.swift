import Foundation
import MeshCodec
import MeshCrypto
import MeshportFuzzSupport
import MeshServices
import MeshStore

/// libFuzzer entry: the input is one on-air packet as a LOG_RX_DATA push carries it. It must
/// encode back to its own bytes; its payload goes through the layout of its type (adverts
/// and their app-data, addressed and group payloads, returned paths, text content), each
/// decoded value back through its encoder, and the whole packet through the packet log's
/// classifier with the public channel joined, as `meshport` does with every packet it hears.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAir(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    guard let packet = try? AirPacket(decoding: raw) else { return 0 }
    guard (try? packet.encode()) == raw else { fuzzFinding("air packet round trip differs: \(fuzzHex(raw))") }
    _ = packet.hashText
    checkPayload(packet, raw)
    // The payload read as decrypted data of every kind, as a receiver would after opening it.
    if let path = try? ReturnedPath(decoding: packet.payload), path.bytes != packet.payload {
        fuzzFinding("returned path round trip differs: \(fuzzHex(packet.payload))")
    }
    if let text = try? TextContent(decoding: packet.payload), (try? TextContent(decoding: text.bytes)) != text {
        fuzzFinding("text content round trip differs: \(fuzzHex(packet.payload))")
    }
    classify(raw)
    return 0
}

private func checkPayload(_ packet: AirPacket, _ raw: [UInt8]) {
    switch packet.payloadType {
    case .advert:
        guard let advert = try? AdvertPacket(decoding: raw) else { return }
        guard advert.encode() == raw else { fuzzFinding("advert round trip differs: \(fuzzHex(raw))") }
        guard (try? AdvertPacket(uri: advert.uri)) == advert else { fuzzFinding("advert card round trip differs: \(fuzzHex(raw))") }
        if let app = try? AdvertAppData(decoding: advert.appData) {
            guard let bytes = try? app.encode(), (try? AdvertAppData(decoding: bytes)) == app else {
                fuzzFinding("advert app-data round trip differs: \(fuzzHex(advert.appData))")
            }
        }
    case .textMessage, .request, .response, .path:
        if let addressed = try? AddressedPayload(decoding: packet.payload), addressed.bytes != packet.payload {
            fuzzFinding("addressed payload round trip differs: \(fuzzHex(packet.payload))")
        }
    case .groupText, .groupData:
        guard let group = try? GroupPayload(decoding: packet.payload) else { return }
        guard group.bytes == packet.payload else { fuzzFinding("group payload round trip differs: \(fuzzHex(packet.payload))") }
        if let plain = try? PacketCipher.open(group.sealed[...], secret: ChannelSecret.publicChannel.bytes) {
            _ = try? TextContent(decoding: plain)
        }
    default:
        break
    }
}

private let publicChannel = ChannelInfo(index: 0, name: ChannelSecret.publicChannelName, secret: .publicChannel)

/// The packet log's way: classify (channel, sender), then name the kind; a packet the codec
/// took must be logged, never refused here.
private func classify(_ raw: [UInt8]) {
    let classifier = PacketClassifier(channels: [publicChannel]) { hash in
        // One contact whose key starts with every hash byte: the lookup path is taken.
        PublicKey([hash] + [UInt8](repeating: 0x5A, count: PublicKey.size - 1))
    }
    let heard: HeardPacket
    do {
        heard = try classifier.heard(ReceivedPacket(snrX4: 12, rssi: -80, payload: raw), at: Date(timeIntervalSince1970: 1_800_000_000))
    } catch {
        fuzzFinding("the classifier refused a packet the codec decoded (\(error)): \(fuzzHex(raw))")
    }
    if case let .groupText(channel, hash) = PacketKind(heard), channel != nil, hash != ChannelSecret.publicChannel.channelHash {
        fuzzFinding("a group text opened with a channel whose hash differs: \(fuzzHex(raw))")
    }
}
