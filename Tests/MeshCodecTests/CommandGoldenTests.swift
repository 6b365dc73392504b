import Testing
@testable import MeshCodec

/// Golden vectors for every command (Docs/protocol.md §3), written from the byte layouts.
@Suite struct CommandGoldenTests {
    let contactHex = keyHex + "02" + "01" + "02" + "aabb" + zeros(62) + text("Relay", width: 32) + le32(1_700_000_000)
    var contact: Contact {
        Contact(publicKey: key, type: .repeater, flags: .favourite, outPath: Path(length: PathLength(raw: 2), bytes: [0xAA, 0xBB]),
                name: "Relay", lastAdvert: 1_700_000_000)
    }

    @Test func appStart() throws {
        // meshcore_py's bytes from Docs/protocol.md §1.2: 01 03 + six spaces + "mccli".
        try expectGolden("01 03 202020202020 6d63636c69", .appStart(AppStart(appName: "mccli")))
        try expectGolden("01 01 000000000000 74657374", .appStart(AppStart(appName: "test", reserved: [1, 0, 0, 0, 0, 0, 0])))
    }

    @Test func messaging() throws {
        try expectGolden("02 00 01" + le32(1_700_000_000) + prefixHex + text("hi"),
                         .sendTextMessage(SendTextMessage(attempt: 1, timestamp: 1_700_000_000, recipient: prefix6, text: "hi")))
        try expectGolden("02 01 00" + le32(5) + prefixHex + text("ver"),
                         .sendTextMessage(SendTextMessage(textType: .cliData, timestamp: 5, recipient: prefix6, text: "ver")))
        try expectGolden("03 00 02" + le32(7) + text("yo"), .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 2, timestamp: 7, text: "yo")))
        try expectGolden("0a", .syncNextMessage)
    }

    @Test func contacts() throws {
        try expectGolden("04", .getContacts(since: nil))
        try expectGolden("04" + le32(0x1234), .getContacts(since: 0x1234))
        try expectGolden("09" + contactHex, .addUpdateContact(AddUpdateContact(contact: contact, layout: .base)))
        var c = contact
        c.position = Coordinates(latitudeE6: 52_520_000, longitudeE6: -13_405_000)
        try expectGolden("09" + contactHex + le32(52_520_000) + le32(UInt32(bitPattern: -13_405_000)),
                         .addUpdateContact(AddUpdateContact(contact: c, layout: .withPosition)))
        c.lastModified = 99
        try expectGolden("09" + contactHex + le32(52_520_000) + le32(UInt32(bitPattern: -13_405_000)) + le32(99),
                         .addUpdateContact(AddUpdateContact(contact: c, layout: .full)))
        try expectGolden("0d" + keyHex, .resetPath(key))
        try expectGolden("0f" + keyHex, .removeContact(key))
        try expectGolden("10" + keyHex, .shareContact(key))
        try expectGolden("11", .exportContact(nil))
        try expectGolden("11" + keyHex, .exportContact(key))
        let advert = [UInt8](repeating: 0x42, count: 100)
        try expectGolden("12" + Hex.encode(advert), .importContact(advert: advert))
        try expectGolden("1e" + keyHex, .getContactByKey(key))
        try expectGolden("2a 00" + keyHex, .getAdvertPath(key, reserved: 0))
        try expectGolden("3a 1e", .setAutoAddConfig(AutoAddConfig(bitmask: 0x1E)))
        try expectGolden("3a 1f 03", .setAutoAddConfig(AutoAddConfig(bitmask: 0x1F, maxHops: 3)))
        try expectGolden("3b", .getAutoAddConfig)
    }

    @Test func device() throws {
        try expectGolden("05", .getDeviceTime)
        try expectGolden("06" + le32(1_715_770_351), .setDeviceTime(1_715_770_351))
        try expectGolden("07", .sendSelfAdvert(flood: false))
        try expectGolden("07 01", .sendSelfAdvert(flood: true))
        try expectGolden("08" + text("Base camp"), .setAdvertName("Base camp"))
        try expectGolden("0b" + le32(869_525) + le32(250_000) + "0a 05",
                         .setRadioParams(RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 5), clientRepeat: nil))
        try expectGolden("0b" + le32(869_495) + le32(62_500) + "07 08 01",
                         .setRadioParams(RadioParams(frequencyKHz: 869_495, bandwidthHz: 62_500, spreadingFactor: 7, codingRate: 8), clientRepeat: true))
        try expectGolden("0c 16", .setRadioTxPower(22))
        try expectGolden("0c f7", .setRadioTxPower(-9))
        try expectGolden("0e" + le32(52_520_000) + le32(13_405_000), .setAdvertLatLon(Coordinates(latitudeE6: 52_520_000, longitudeE6: 13_405_000), altitude: nil))
        try expectGolden("0e" + le32(1) + le32(2) + le32(30), .setAdvertLatLon(Coordinates(latitudeE6: 1, longitudeE6: 2), altitude: 30))
        try expectGolden("13" + text("reboot"), .reboot)
        try expectGolden("14", .getBatteryAndStorage)
        try expectGolden("15" + le32(1500) + le32(2000), .setTuningParams(rxDelayBase: 1500, airtimeFactor: 2000))
        // Docs/protocol.md §1.2: device query with protocol v3 is `16 03`.
        try expectGolden("16 03", .deviceQuery(appTargetVersion: 3))
        try expectGolden("17", .exportPrivateKey)
        let pk = [UInt8](repeating: 0x5A, count: 64)
        try expectGolden("18" + Hex.encode(pk), .importPrivateKey(pk))
        try expectGolden("25" + le32(123_456), .setDevicePin(123_456))
        try expectGolden("26 01", .setOtherParams(OtherParams(manualAddContacts: 1)))
        try expectGolden("26 00 26 01 01", .setOtherParams(OtherParams(manualAddContacts: 0, telemetryModes: TelemetryModes(base: 2, location: 1, environment: 2),
                                                                       advertLocationPolicy: 1, multiAcks: 1)))
        try expectGolden("28", .getCustomVars)
        try expectGolden("29" + text("gps:1"), .setCustomVar(name: "gps", value: "1"))
        try expectGolden("29" + text("a\u{0600}:1"), .setCustomVar(name: "a\u{0600}", value: "1"))   // split on the byte, not the Character
        try expectGolden("2b", .getTuningParams)
        try expectGolden("33" + text("reset"), .factoryReset)
        try expectGolden("38 00", .getStats(.core))
        try expectGolden("38 02", .getStats(.packets))
        try expectGolden("3c", .getAllowedRepeatFreq)
        try expectGolden("3d 00 01", .setPathHashMode(1))
    }

    @Test func channels() throws {
        let secret = ChannelSecret.publicChannel
        try expectGolden("1f 00", .getChannel(0))
        try expectGolden("20 00" + text("Public", width: 32) + "8b3387e9c5cdea6ac9e5edbaa115cd72",
                         .setChannel(ChannelInfo(index: 0, name: "Public", secret: secret)))
        try expectGolden("3e 01 ff" + le16(0x0100) + "cafe",
                         .sendChannelData(SendChannelData(channelIndex: 1, dataType: 0x0100, payload: [0xCA, 0xFE])))
        try expectGolden("3e 01 02 aabb" + le16(0xFFFF) + "01",
                         .sendChannelData(SendChannelData(channelIndex: 1, path: Path(length: PathLength(raw: 2), bytes: [0xAA, 0xBB]), dataType: 0xFFFF, payload: [1])))
    }

    @Test func remoteNodes() throws {
        try expectGolden("1a" + keyHex + text("secret"), .sendLogin(key, password: "secret"))
        try expectGolden("1b" + keyHex, .sendStatusRequest(key))
        try expectGolden("1c" + keyHex, .hasConnection(key))
        try expectGolden("1d" + keyHex, .logout(key))
        try expectGolden("27 000000" + keyHex, .sendTelemetryRequest(key, reserved: [0, 0, 0]))
        try expectGolden("27 000000", .sendTelemetryRequest(nil, reserved: [0, 0, 0]))
        try expectGolden("32" + keyHex + "01", .sendBinaryRequest(key, data: [0x01]))
        try expectGolden("34 00" + keyHex, .sendPathDiscoveryRequest(key))
        try expectGolden("39" + keyHex + "0300", .sendAnonRequest(key, data: [0x03, 0x00]))
        try expectGolden("24" + le32(0xDEADBEEF) + le32(7) + "00 a1b2", .sendTracePath(TraceRequest(tag: 0xDEADBEEF, authCode: 7, path: [0xA1, 0xB2])))
        try expectGolden("24" + le32(1) + le32(2) + "01 a1a2b1b2", .sendTracePath(TraceRequest(tag: 1, authCode: 2, flags: 1, path: [0xA1, 0xA2, 0xB1, 0xB2])))
        try expectGolden("19 02 aabb 01020304", .sendRawData(path: [0xAA, 0xBB], payload: [1, 2, 3, 4]))
        try expectGolden("37 84" + le32(9), .sendControlData([0x84] + bytes(le32(9))))
    }

    @Test func signingAndScopes() throws {
        try expectGolden("21", .signStart)
        try expectGolden("22 010203", .signData([1, 2, 3]))
        try expectGolden("23", .signFinish)
        let k16 = [UInt8](repeating: 0x11, count: 16)
        try expectGolden("36 00", .setFloodScopeKey(.session(key: nil)))
        try expectGolden("36 00" + Hex.encode(k16), .setFloodScopeKey(.session(key: k16)))
        try expectGolden("36 01", .setFloodScopeKey(.unscoped))
        try expectGolden("3f" + text("de", width: 31) + Hex.encode(k16), .setDefaultFloodScope(FloodScope(name: "de", key: k16)))
        try expectGolden("3f", .setDefaultFloodScope(nil))
        try expectGolden("40", .getDefaultFloodScope)
        try expectGolden("41 01 1504aabbccdd", .sendRawPacket(priority: 1, packet: [0x15, 0x04, 0xAA, 0xBB, 0xCC, 0xDD]))
    }

    @Test func everyCommandCodeHasAGoldenVector() throws {
        // The suites above cover each code; this guards against a code added without one.
        let covered: Set<UInt8> = Set(1...43).union([50, 51, 52]).union(54...65)
        #expect(Set(CommandCode.allCases.map(\.rawValue)) == covered)
    }

    @Test func unknownCodesAreKept() throws {
        #expect(try Command(decoding: [0x2C, 1, 2]) == .unknown(code: 0x2C, payload: [1, 2]))
        #expect(try Command(decoding: [0x35]) == .unknown(code: 0x35, payload: []))
        #expect(try Command.unknown(code: 0x7F, payload: [9]).encode() == [0x7F, 9])
    }

    @Test func firmwareRejections() throws {
        // Each of these is answered by the firmware with an error; the codec refuses them.
        #expect(throws: CodecError.self) { try Command(decoding: bytes("01 03 2020")) }            // APP_START < 8 bytes
        #expect(throws: CodecError.self) { try Command(decoding: bytes("13" + text("reboo"))) }    // REBOOT needs "reboot"
        #expect(throws: CodecError.self) { try Command(decoding: bytes("33" + text("RESET"))) }
        #expect(throws: CodecError.self) { try Command(decoding: bytes("20 00" + zeros(64))) }    // 32-byte secret
        #expect(throws: CodecError.self) { try Command(decoding: bytes("09" + keyHex + "01")) }   // short contact
        #expect(throws: CodecError.self) { try Command(decoding: bytes("24" + le32(1) + le32(2) + "01 a1b2c3")) } // 3 bytes at 2-byte hops
        #expect(throws: CodecError.self) { try Command(decoding: bytes("3d 01 01")) }             // reserved byte must be 0
        #expect(throws: CodecError.self) { try Command(decoding: bytes("37 04")) }                // control data needs bit 7
        #expect(throws: CodecError.self) { try Command(decoding: bytes("19 ff 01020304")) }       // raw data cannot flood
        #expect(throws: CodecError.self) { try Command(decoding: bytes("38 07")) }                // unknown stats type
        #expect(throws: CodecError.self) { try Command(decoding: bytes("05 00")) }                // over-long
        #expect(throws: CodecError.empty) { try Command(decoding: []) }
    }

    @Test func encodingChecksLimits() throws {
        let long = String(repeating: "x", count: 161)
        #expect(throws: CodecError.self) { try Command.sendTextMessage(SendTextMessage(timestamp: 0, recipient: prefix6, text: long)).encode() }
        #expect(throws: CodecError.self) { try Command.sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 0, text: long)).encode() }
        #expect(throws: CodecError.self) { try Command.importPrivateKey([1, 2]).encode() }
        #expect(throws: CodecError.self) { try Command.setCustomVar(name: "a:b", value: "1").encode() }
        let ok = String(repeating: "é", count: 80)   // 160 bytes
        #expect(try Command.sendTextMessage(SendTextMessage(timestamp: 0, recipient: prefix6, text: ok)).encode().count == 13 + 160)
    }
}
