import Testing
@testable import MeshCodec

/// Golden vectors for every push (Docs/protocol.md §5).
@Suite struct PushGoldenTests {
    @Test func keyPushes() throws {
        try expectGolden("80" + keyHex, .push(.advert(key)))
        try expectGolden("81" + keyHex, .push(.pathUpdated(key)))
        try expectGolden("8f" + keyHex, .push(.contactDeleted(key)))
        try expectGolden("83", .push(.messageWaiting))
        try expectGolden("90", .push(.contactsFull))
    }

    @Test func sendConfirmed() throws {
        // 4-byte ACK + u32 round trip (Docs/protocol.md §10 item 2: not 6 bytes).
        try expectGolden("82 d9995416" + le32(2345), .push(.sendConfirmed(ackCode: AckCode(bytes: bytes("d9995416"))!, roundTripMs: 2345)))
    }

    @Test func packets() throws {
        try expectGolden("84 28 b5 ff 01020304", .push(.rawData(ReceivedPacket(snrX4: 40, rssi: -75, extra: 0xFF, payload: [1, 2, 3, 4]))))
        try expectGolden("88 f4 a0 1100aabb", .push(.logRxData(ReceivedPacket(snrX4: -12, rssi: -96, payload: [0x11, 0x00, 0xAA, 0xBB]))))
        try expectGolden("8e 10 c4 00 92" + le32(5) + keyHex,
                         .push(.controlData(ReceivedPacket(snrX4: 16, rssi: -60, extra: 0, payload: [0x92] + bytes(le32(5)) + key.bytes))))
    }

    @Test func login() throws {
        try expectGolden("85 00" + prefixHex, .push(.loginSuccess(LoginSuccess(permissions: 0, serverPrefix: prefix6))))
        try expectGolden("85 01" + prefixHex + le32(1_700_000_000) + "03 02",
                         .push(.loginSuccess(LoginSuccess(permissions: 1, serverPrefix: prefix6, serverTimestamp: 1_700_000_000, aclPermissions: 3, firmwareLevel: 2))))
        try expectGolden("85 00" + prefixHex + le32(9) + "01",
                         .push(.loginSuccess(LoginSuccess(permissions: 0, serverPrefix: prefix6, serverTimestamp: 9, aclPermissions: 1))))
        try expectGolden("86 00" + prefixHex, .push(.loginFail(prefix6)))
    }

    @Test func status() throws {
        let status = RepeaterStatus(batteryMillivolts: 4100, txQueueLength: 1, noiseFloor: -117, lastRSSI: -80, packetsReceived: 1000, packetsSent: 500,
                                    airtimeSeconds: 60, uptimeSeconds: 86400, sentFlood: 300, sentDirect: 200, receivedFlood: 700, receivedDirect: 300,
                                    fullEvents: 0, lastSNRx4: 30, directDuplicates: 4, floodDuplicates: 40, rxAirtimeSeconds: 900, receiveErrors: 12)
        let blob = le16(4100) + le16(1) + le16(UInt16(bitPattern: -117)) + le16(UInt16(bitPattern: -80))
            + [1000, 500, 60, 86400, 300, 200, 700, 300].map { le32($0) }.joined()
            + le16(0) + le16(30) + le16(4) + le16(40) + le32(900) + le32(12)
        #expect(bytes(blob).count == 56)
        #expect(status.blob == bytes(blob))
        #expect(RepeaterStatus(blob: bytes(blob)) == status)
        try expectGolden("87 00" + prefixHex + blob, .push(.statusResponse(prefix6, blob: bytes(blob))))
        #expect(RepeaterStatus(blob: [1, 2, 3]) == nil)
    }

    @Test func trace() throws {
        // 2 hops of 1-byte hashes: 2 hash bytes, 2 hop SNRs, final SNR.
        try expectGolden("89 00 02 00" + le32(0xAABBCCDD) + le32(1) + "a1b2" + "1c f0" + "14",
                         .push(.traceData(TraceData(flags: 0, tag: 0xAABBCCDD, authCode: 1, pathHashes: [0xA1, 0xB2], hopSNRx4: [28, -16], finalSNRx4: 20))))
        // 2-byte hashes (sz = 1): path_len counts bytes, SNR count = path_len >> 1.
        let t = TraceData(flags: 1, tag: 1, authCode: 2, pathHashes: [0xA1, 0xA2, 0xB1, 0xB2], hopSNRx4: [8, 12], finalSNRx4: 4)
        try expectGolden("89 00 04 01" + le32(1) + le32(2) + "a1a2b1b2" + "080c" + "04", .push(.traceData(t)))
        #expect(t.hops == [[0xA1, 0xA2], [0xB1, 0xB2]])
    }

    @Test func newAdvert() throws {
        let hex = "8a" + keyHex + "04 00 ff" + zeros(64) + text("Sensor", width: 32) + le32(3) + le32(0) + le32(0) + le32(4)
        try expectGolden(hex, .push(.newAdvert(Contact(publicKey: key, type: .sensor, name: "Sensor", lastAdvert: 3, lastModified: 4))))
    }

    @Test func telemetryBinaryAndPaths() throws {
        let lpp = "01 74 019a"   // channel 1 voltage 4.10 V
        try expectGolden("8b 00" + prefixHex + lpp, .push(.telemetryResponse(prefix6, lpp: bytes(lpp))))
        try expectGolden("8c 00" + le32(77) + "0102", .push(.binaryResponse(tag: AckCode(77), data: [1, 2])))
        try expectGolden("8d 00" + prefixHex + "02 a1b2" + "ff",
                         .push(.pathDiscoveryResponse(PathDiscoveryResponse(prefix: prefix6, outPath: Path(length: PathLength(raw: 2), bytes: [0xA1, 0xB2]),
                                                                            inPath: .none))))
    }

    @Test func everyPushCodeIsCovered() {
        #expect(PushCode.allCases.map(\.rawValue) == Array(0x80...0x90))
    }

    @Test func unknownAndMalformed() throws {
        #expect(try RadioFrame(decoding: [0x91, 1]) == .push(.unknown(code: 0x91, payload: [1])))
        #expect(try RadioFrame(decoding: [0xFF]) == .push(.unknown(code: 0xFF, payload: [])))
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("82 01020304")) }        // no round trip
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("83 00")) }              // over-long
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("89 00 05 00" + le32(1) + le32(2) + "a1")) } // hashes cut
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("8d 00" + prefixHex + "c1 aa")) } // reserved hash mode 3
    }
}
