import Foundation
import MeshportTestSupport
import MeshRegion

/// A test PostgreSQL holding a small region: observers 1-3 hear node 7's advert directly, 1 and
/// 2 a Public channel text through a repeater.
enum RegionSample {
    static func key(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }

    /// The server, and the `--history` URL of its written database.
    static func database() async throws -> (PostgresProcess, String) {
        let server = try await PostgresProcess()
        let url = try await server.createDatabase()
        let store = try await RegionStore.connect(url: url, log: { _ in })
        try await store.migrate()
        try await store.write(batch(at: Date()))
        await store.close()
        return (server, url)
    }

    static func batch(at now: Date) -> RegionBatch {
        let advert = NodeAdvert(key: key(7), name: "Hilltop", kind: .repeater, latitude: 52.1, longitude: 4.9, advertisedAt: now)
        let advertRaw: [UInt8] = [0x11, 0x00] + key(7) + Array("Hilltop".utf8)
        let advertPacket = DecodedPacket(packetHash: "00000007ABCDEF01", payloadType: 4, routeType: 1, payloadVersion: 0, path: [],
                                         facts: [.advert(advert)])
        let text = ChannelText(channelName: "Public", channelHash: 0x11, sender: "Ann", text: "hello region", sentAt: now)
        let textRaw: [UInt8] = [0x15, 0x01, 0xAA] + Array("Ann: hello region".utf8)
        let textPacket = DecodedPacket(packetHash: "1234567890ABCDEF", payloadType: 5, routeType: 1, payloadVersion: 0, path: [0xAA],
                                       facts: [.channelText(text)])
        func heard(_ raw: [UInt8], _ packet: DecodedPacket, by observers: [UInt8], after seconds: Double) -> [Hearing] {
            observers.enumerated().map { index, observer in
                Hearing(observerKey: key(observer), region: "AMS", heardAt: now.addingTimeInterval(seconds + Double(index)), direction: .rx,
                        raw: raw, snr: 7.5 - Double(index), rssi: -90 - index, decoded: packet)
            }
        }
        return RegionBatch(
            observers: [1, 2, 3].map { ObserverReport(key: key($0), region: "AMS", name: "gateway-\($0)", online: true, reportedAt: now) },
            hearings: heard(advertRaw, advertPacket, by: [1, 2, 3], after: 0) + heard(textRaw, textPacket, by: [1, 2], after: 10))
    }
}
