@testable import MeshBLE
import Testing

/// HCI packets and events byte for byte, against the sequences an H4 controller exchanges.
@Suite struct HCIPacketTests {
    private func hex(_ s: String) -> [UInt8] { s.split(separator: " ").map { UInt8($0, radix: 16)! } }

    @Test func commandsEncodeAsTheControllerExpects() throws {
        #expect(HCIPacket.command(.reset).h4 == hex("01 03 0c 00"))
        #expect(HCIPacket.command(.leReadBufferSize).h4 == hex("01 02 20 00"))
        #expect(HCIPacket.command(.leSetScanEnable(true)).h4 == hex("01 0c 20 02 01 00"))
        #expect(HCIPacket.command(.leSetScanParameters(active: true, ownAddress: .random)).h4 == hex("01 0b 20 07 01 10 00 10 00 01 00"))
        let random = try BDAddress("E1:00:00:00:00:02", kind: .random)
        #expect(HCIPacket.command(.leSetRandomAddress(random)).h4 == hex("01 05 20 06 02 00 00 00 00 e1"))
        let peer = try BDAddress("F0:00:00:00:00:01", kind: .random)
        let connect = HCIPacket.command(.leCreateConnection(peer: peer, ownAddress: .random, parameters: ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 400)))
        #expect(connect.h4 == hex("01 0d 20 19 10 00 10 00 00 01 01 00 00 00 00 f0 01 18 00 28 00 00 00 90 01 00 00 00 00"))
        let ltk = [UInt8](1...16)
        #expect(HCIPacket.command(.leEnableEncryption(handle: 1, random: 0, ediv: 0, ltk: ltk)).h4 == hex("01 19 20 1c 01 00 00 00 00 00 00 00 00 00 00 00") + ltk)
        #expect(HCIPacket.command(.disconnect(handle: 0x40)).h4 == hex("01 06 04 03 40 00 13"))
    }

    @Test func eventMasksEnableWhatTheHostHandles() {
        // Disconnection Complete, Encryption Change, Hardware Error, Data Buffer Overflow, Key Refresh, LE Meta.
        #expect(HCICommand.setEventMask.parameters == [0x90, 0x80, 0x00, 0x02, 0x00, 0x80, 0x00, 0x20])
        #expect(HCICommand.leSetEventMask.parameters == [0x27, 0x10, 0, 0, 0, 0, 0, 0])
    }

    @Test func framerSplitsAnyChunking() throws {
        let stream = hex("04 0e 04 01 03 0c 00") + hex("02 01 20 07 00 03 00 04 00 03 f7 00") + hex("04 13 05 01 01 00 01 00")
        for chunk in [1, 2, 5, 7, stream.count] {
            var framer = H4Framer()
            var packets: [HCIPacket] = []
            var i = 0
            while i < stream.count {
                packets += try framer.push(stream[i..<min(stream.count, i + chunk)])
                i += chunk
            }
            #expect(packets.count == 3)
            #expect(packets.first == .event(code: 0x0E, parameters: hex("01 03 0c 00")))
            #expect(packets[1] == .acl(ACLData(handle: 1, boundary: .firstFlushable, data: hex("03 00 04 00 03 f7 00"))))
            #expect(packets.map(\.h4).reduce([], +) == stream)
        }
    }

    @Test func framerRefusesAStreamOutOfSync() {
        var framer = H4Framer()
        #expect(throws: HCIFramingError(indicator: 0x3E)) { try framer.push(hex("3e 01 02")) }
    }

    @Test func decodesEvents() throws {
        #expect(try HCIEvent(code: 0x0E, parameters: hex("01 03 0c 00")) == .commandComplete(numPackets: 1, opcode: 0x0C03, returnParameters: [0]))
        #expect(try HCIEvent(code: 0x0F, parameters: hex("00 01 0d 20")) == .commandStatus(status: 0, numPackets: 1, opcode: 0x200D))
        #expect(try HCIEvent(code: 0x08, parameters: hex("00 01 00 01")) == .encryptionChange(status: 0, handle: 1, enabled: true))
        #expect(try HCIEvent(code: 0x05, parameters: hex("00 01 00 3d")) == .disconnectionComplete(status: 0, handle: 1, reason: 0x3D))
        #expect(try HCIEvent(code: 0x13, parameters: hex("02 01 00 03 00 02 00 01 00")) == .numberOfCompletedPackets([(1, 3), (2, 1)]))
        let complete = try HCIEvent(code: 0x3E, parameters: hex("01 00 01 00 00 01 01 00 00 00 00 f0 18 00 00 00 90 01 00"))
        guard case let .leConnectionComplete(c) = complete else { Issue.record("\(complete)"); return }
        #expect(c.status == 0 && c.handle == 1 && c.role == 0 && c.interval == 24 && c.supervisionTimeout == 400)
        #expect(c.peer == (try BDAddress("F0:00:00:00:00:01", kind: .random)))
        let update = try HCIEvent(code: 0x3E, parameters: hex("06 01 00 0c 00 18 00 00 00 90 01"))
        #expect(update == .leRemoteConnectionParameterRequest(handle: 1, parameters: ConnectionParameters(intervalMin: 12, intervalMax: 24, latency: 0, supervisionTimeout: 400)))
        #expect(try HCIEvent(code: 0x3E, parameters: [0x14]) == .other(code: 0x3E, subevent: 0x14))
    }

    @Test func truncatedEventsAreTypedErrors() {
        #expect(throws: TruncatedPDU.self) { try HCIEvent(code: 0x0E, parameters: hex("01 03")) }
        #expect(throws: TruncatedPDU.self) { try HCIEvent(code: 0x3E, parameters: hex("01 00 01")) }
        #expect(throws: TruncatedPDU.self) { try HCIEvent(code: 0x13, parameters: hex("02 01 00 03 00")) }
    }

    @Test func advertisingReportsCarryNameAndService() throws {
        // ADV_IND with flags and the NUS UUID, then the SCAN_RSP with the name.
        let adv = hex("02 01 00 01 01 00 00 00 00 f0 15 02 01 06 11 07 9e ca dc 24 0e e5 a9 e0 93 f3 a3 b5 01 00 40 6e ce")
        guard case let .leAdvertisingReports(reports) = try HCIEvent(code: 0x3E, parameters: adv), let r = reports.first else { Issue.record("no report"); return }
        #expect(!r.isScanResponse && r.isConnectable && r.rssi == -50)
        #expect(r.data.serviceUUIDs == [.nus])
        let name = Array("MeshCore-TEST".utf8)
        let rsp = hex("02 01 04 01 01 00 00 00 00 f0") + [UInt8(name.count + 2), UInt8(name.count + 1), 0x09] + name + [0xCE]
        guard case let .leAdvertisingReports(responses) = try HCIEvent(code: 0x3E, parameters: rsp), let s = responses.first else { Issue.record("no response"); return }
        #expect(s.isScanResponse && s.data.localName == "MeshCore-TEST")
    }

    @Test func extendedReportsDecodeToo() throws {
        var p = hex("0d 01 1b 00 01 01 00 00 00 00 f0 01 00 ff 7f c4 00 00 00 00 00 00 00 00 00")
        let ad: [UInt8] = [0x04, 0x09, 0x41, 0x42, 0x43]
        p += [UInt8(ad.count)] + ad
        guard case let .leAdvertisingReports(reports) = try HCIEvent(code: 0x3E, parameters: p), let r = reports.first else { Issue.record("no report"); return }
        #expect(r.isScanResponse && r.isConnectable && r.rssi == -60 && r.data.localName == "ABC")
    }

    @Test func advertisingDataStopsAtAStructureRunningPastTheEnd() {
        let data = AdvertisingData([0x02, 0x01, 0x06, 0x09, 0x09, 0x41])
        #expect(data.structures.count == 1)
        #expect(data.localName == nil)
    }
}
