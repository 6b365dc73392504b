import Foundation
import MeshCodec
@testable import MeshGateway
import Testing

/// The retained status message and the last will (Docs/gateway.md, "Status message").
@Suite struct StatusMessageTests {
    static let key = PublicKey([UInt8](repeating: 0x5C, count: 32))!
    static let selfInfo = SelfInfo(txPower: 22, maxTxPower: 22, publicKey: key,
                                   radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5),
                                   name: "Roof")
    static let device = DeviceInfo(protocolVersion: 13, maxContacts: 350, maxChannels: 40, blePin: 0, buildDate: "25-Nov-2025",
                                   manufacturer: "Heltec V3", firmwareVersion: "v1.17.1")
    static let instant = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func onlineIsTheGoldenJSON() throws {
        let stats = GatewayStats([.core(CoreStats(batteryMillivolts: 4100, uptimeSeconds: 3600, errorFlags: 0, queueLength: 2)),
                                  .radio(RadioStats(noiseFloor: -118, lastRSSI: -90, lastSNRx4: 26, txAirtimeSeconds: 12, rxAirtimeSeconds: 340)),
                                  .packets(PacketStats(received: 500, sent: 20, sentFlood: 15, sentDirect: 5, receivedFlood: 450,
                                                       receivedDirect: 50, receiveErrors: 3))])
        let message = StatusMessage.online(selfInfo: Self.selfInfo, device: Self.device, stats: stats, clientVersion: "meshport/1.0",
                                           at: Self.instant)
        let text = String(decoding: try GatewayJSON.encode(message), as: UTF8.self)
        let key = String(repeating: "5C", count: 32)
        #expect(text == #"{"client_version":"meshport/1.0","firmware_version":"v1.17.1 (Build: 25-Nov-2025)","model":"Heltec V3","# +
                #""origin":"Roof","origin_id":"\#(key)","radio":"869.525,250.0,11,5","# +
                #""stats":{"battery_mv":4100,"direct_rx":50,"direct_tx":5,"errors":0,"flood_rx":450,"flood_tx":15,"last_rssi":-90,"last_snr":6.5,"# +
                #""noise_floor":-118,"packets_received":500,"packets_sent":20,"queue_len":2,"recv":500,"recv_errors":3,"rx_air_secs":340,"# +
                #""sent":20,"tx_air_secs":12,"uptime_secs":3600},"status":"online","timestamp":"2026-09-21T14:13:20+00:00"}"#)
    }

    @Test func theLastWillSaysOfflineAndWho() throws {
        let will = StatusMessage.offline(origin: GatewayOrigin(Self.selfInfo), at: Self.instant)
        let text = String(decoding: try GatewayJSON.encode(will), as: UTF8.self)
        #expect(text == #"{"origin":"Roof","origin_id":"\#(String(repeating: "5C", count: 32))","status":"offline","timestamp":"2026-09-21T14:13:20+00:00"}"#)
    }

    @Test func statsTheRadioDidNotGiveAreLeftOut() throws {
        #expect(GatewayStats([]) == nil)
        let core = try #require(GatewayStats([.core(CoreStats(batteryMillivolts: 3700, uptimeSeconds: 1, errorFlags: 0, queueLength: 0))]))
        let object = try #require(JSONSerialization.jsonObject(with: Data(JSONEncoder().encode(core))) as? [String: Any])
        #expect(Set(object.keys) == ["battery_mv", "uptime_secs", "errors", "queue_len"])
        let online = StatusMessage.online(selfInfo: Self.selfInfo, device: Self.device, stats: nil, clientVersion: "meshport/1.0", at: Self.instant)
        #expect(!String(decoding: try GatewayJSON.encode(online), as: UTF8.self).contains("stats"))
    }

    @Test func oldFirmwareHasNoModelAndItsProtocolNumber() {
        let old = DeviceInfo(protocolVersion: 2, buildDate: "1 Feb 2025", manufacturer: "", firmwareVersion: "v1.0.0")
        #expect(StatusMessage.describe(old) == ("unknown", "v2"))
        #expect(StatusMessage.describe(Self.device) == ("Heltec V3", "v1.17.1 (Build: 25-Nov-2025)"))
    }

    @Test func topicsUseTheRegionAndKeyInUpperCase() throws {
        let topics = try GatewayTopics(region: "ams", publicKey: Self.key)
        #expect(topics.packets == "meshcore/AMS/\(String(repeating: "5C", count: 32))/packets")
        #expect(topics.status == "meshcore/AMS/\(String(repeating: "5C", count: 32))/status")
        for bad in ["", "A/B", "#", "+", "ÄMS", String(repeating: "A", count: 17)] {
            #expect(throws: GatewayError.badRegion(bad)) { try GatewayTopics(region: bad, publicKey: Self.key) }
        }
    }
}
