import MeshCodec
import Testing

/// On-air packets (LOG_RX_DATA payloads): header bits, transport codes, paths, and errors
/// that say what and where.
@Suite struct AirPacketTests {
    @Test func decodesHeaderPathAndPayload() throws {
        // FLOOD | GRP_TXT, two 2-byte hops.
        let raw: [UInt8] = [0x15, 0x42, 0xAA, 0xBB, 0xCC, 0xDD, 0x11, 0x22, 0x33]
        let p = try AirPacket(decoding: raw)
        #expect(p.route == .flood && p.payloadType == .groupText && p.version == 0 && p.transportCodes == nil)
        #expect(p.path.hops == [[0xAA, 0xBB], [0xCC, 0xDD]] && p.payload == [0x11, 0x22, 0x33])
        #expect(try p.encode() == raw)
        #expect(p.payloadType.description == "GRP_TXT" && AirPacket.PayloadType(rawValue: 13).description == "type 13")
    }

    @Test func transportRoutesCarryTwoCodes() throws {
        let p = AirPacket(route: .transportDirect, payloadType: .ack, transportCodes: TransportCodes(0x1234, 0xABCD), payload: [1, 2, 3, 4])
        let raw = try p.encode()
        #expect(raw == [0x0F, 0x34, 0x12, 0xCD, 0xAB, 0x00, 1, 2, 3, 4])
        #expect(try AirPacket(decoding: raw) == p)
        #expect(throws: CodecError.unencodable(frame: "air packet", field: "transport codes", reason: "present exactly on transport routes")) {
            try AirPacket(route: .flood, payloadType: .ack, transportCodes: TransportCodes(1, 2), payload: [1]).encode()
        }
    }

    @Test func anAdvertIsTheSamePacketEitherWay() throws {
        let advert = AdvertPacket(publicKey: PublicKey([UInt8](repeating: 9, count: 32))!, timestamp: 0x0102_0304,
                                  signature: [UInt8](repeating: 5, count: 64), appData: [0x81] + Array("Node".utf8))
        let p = try AirPacket(decoding: advert.encode())
        #expect(p.route == .flood && p.payloadType == .advert && p.path.bytes.isEmpty)
        #expect(p.payload == advert.publicKey.bytes + [4, 3, 2, 1] + advert.signature + advert.appData)
    }

    @Test func badPacketsSayWhatAndWhere() {
        #expect(throws: CodecError.invalidField(frame: "air packet", field: "path length", offset: 1, reason: "reserved hash size or over 64 bytes (0xc1)")) {
            try AirPacket(decoding: [0x11, 0xC1, 0xAA, 0x00])
        }
        #expect(throws: CodecError.truncated(frame: "air packet", field: "path", offset: 2, needed: 3, available: 1)) {
            try AirPacket(decoding: [0x11, 0x03, 0xAA])
        }
        #expect(throws: CodecError.truncated(frame: "air packet", field: "payload", offset: 3, needed: 1, available: 0)) {
            try AirPacket(decoding: [0x11, 0x01, 0xAA])
        }
        #expect(throws: CodecError.overlong(frame: "air packet", expected: 255, actual: 256)) {
            try AirPacket(decoding: [0x11, 0x00] + [UInt8](repeating: 1, count: 254))
        }
        #expect(throws: CodecError.truncated(frame: "air packet", field: "transport code 2", offset: 3, needed: 2, available: 1)) {
            try AirPacket(decoding: [0x00, 0x01, 0x02, 0x03])
        }
    }

    @Test func payloadLayoutsRoundTrip() throws {
        let text = TextContent(timestamp: 0x0A0B_0C0D, attempt: 2, textType: .signedPlain, text: Array("héllo".utf8))
        #expect(text.bytes.prefix(5) == [0x0D, 0x0C, 0x0B, 0x0A, 0x0A])
        #expect(try TextContent(decoding: text.bytes + [0, 0, 0]) == text, "zero padding ends the text")
        let returned = ReturnedPath(path: Path(hops: [[0xAB], [0xCD]])!, extraType: .ack, extra: [1, 2, 3, 4])
        #expect(returned.bytes == [0x02, 0xAB, 0xCD, 0x03, 1, 2, 3, 4])
        #expect(try ReturnedPath(decoding: returned.bytes) == returned)
        let bare = try ReturnedPath(decoding: [0x00, 0xFF, 9, 9, 9, 9])
        #expect(bare.extraType.rawValue == 0xFF && bare.bytes == [0x00, 0xFF, 9, 9, 9, 9], "no extra: type 0xFF kept whole")
        #expect(throws: CodecError.self) { try AirPacket(route: .flood, payloadType: AirPacket.PayloadType(rawValue: 0xFF), payload: [1]).encode() }
        let addressed = AddressedPayload(destinationHash: 1, sourceHash: 2, sealed: [3, 4, 5])
        #expect(try AddressedPayload(decoding: addressed.bytes) == addressed)
        #expect(throws: CodecError.truncated(frame: "group payload", field: "sealed data", offset: 1, needed: 3, available: 2)) {
            try GroupPayload(decoding: [1, 2, 3])
        }
    }
}
