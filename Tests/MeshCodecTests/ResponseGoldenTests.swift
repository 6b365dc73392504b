import Testing
@testable import MeshCodec

/// Golden vectors for every response (Docs/protocol.md §4).
@Suite struct ResponseGoldenTests {
    @Test func simpleResponses() throws {
        try expectGolden("00", .response(.ok(value: nil)))
        try expectGolden("00" + le32(42), .response(.ok(value: 42)))
        try expectGolden("01 06", .response(.error(.illegalArgument)))
        try expectGolden("01 02", .response(.error(.notFound)))
        try expectGolden("01", .response(.error(.unspecified)))
        try expectGolden("01 09", .response(.error(.other(9))))
        try expectGolden("02" + le32(350), .response(.contactsStart(total: 350)))
        try expectGolden("04" + le32(1_700_000_123), .response(.endOfContacts(lastModified: 1_700_000_123)))
        try expectGolden("09" + le32(1_715_770_351), .response(.currentTime(1_715_770_351)))
        try expectGolden("0a", .response(.noMoreMessages))
        try expectGolden("0f", .response(.disabled))
    }

    @Test func errorCodesAreTyped() {
        #expect((1...6).map { RadioError(code: $0) } == [.unsupportedCommand, .notFound, .tableFull, .badState, .fileIOError, .illegalArgument])
        #expect(RadioError.tableFull.code == 3)
    }

    @Test func contactRecord() throws {
        // 148 bytes: key, type, flags, out_path_len, out_path[64], name[32], last_advert, lat, lon, lastmod.
        let hex = "03" + keyHex + "01" + "0a" + "42" + "aabb" + zeros(62) + text("Alice", width: 32)
            + le32(1_700_000_000) + le32(UInt32(bitPattern: -33_868_800)) + le32(151_209_300) + le32(1_700_000_500)
        #expect(bytes(hex).count == 148)
        // path_len 0x42: hash mode 1 (2-byte hashes), 2 hops → 4 path bytes.
        let c = Contact(publicKey: key, type: .chat, flags: [.telemetryBase, .telemetryEnvironment],
                        outPath: Path(length: PathLength(raw: 0x42), bytes: [0xAA, 0xBB, 0, 0]), name: "Alice",
                        lastAdvert: 1_700_000_000, position: Coordinates(latitudeE6: -33_868_800, longitudeE6: 151_209_300),
                        lastModified: 1_700_000_500)
        try expectGolden(hex, .response(.contact(c)))
        #expect(c.outPath.length.hopCount == 2 && c.outPath.length.hashSize == 2)
        // Unknown path (flood).
        let flood = "03" + keyHex + "02 00 ff" + zeros(64) + text("R", width: 32) + le32(1) + le32(0) + le32(0) + le32(2)
        try expectGolden(flood, .response(.contact(Contact(publicKey: key, type: .repeater, name: "R", lastAdvert: 1, lastModified: 2))))
    }

    @Test func selfInfo() throws {
        let hex = "05 01 16 1e" + keyHex + le32(52_520_000) + le32(13_405_000) + "01 01 26 00"
            + le32(869_525) + le32(250_000) + "0b 05" + text("Base")
        let info = SelfInfo(txPower: 22, maxTxPower: 30, publicKey: key, position: Coordinates(latitudeE6: 52_520_000, longitudeE6: 13_405_000),
                            multiAcks: 1, advertLocationPolicy: 1, telemetryModes: TelemetryModes(base: 2, location: 1, environment: 2),
                            manualAddContacts: 0, radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5),
                            name: "Base")
        try expectGolden(hex, .response(.selfInfo(info)))
        #expect(bytes(hex).count == 58 + 4)
        // Negative tx power (1.13+).
        var neg = info
        neg.txPower = -9
        #expect(try RadioFrame(decoding: RadioFrame.response(.selfInfo(neg)).encode()) == .response(.selfInfo(neg)))
    }

    @Test func sent() throws {
        try expectGolden("06 01 d9995416" + le32(9400), .response(.sent(Sent(flood: true, ackCode: AckCode(bytes: bytes("d9995416"))!, suggestedTimeoutMs: 9400))))
        try expectGolden("06 00 01020304" + le32(3400), .response(.sent(Sent(flood: false, ackCode: AckCode(0x04030201), suggestedTimeoutMs: 3400))))
    }

    @Test func contactMessages() throws {
        try expectGolden("07" + prefixHex + "ff 00" + le32(100) + text("hi"),
                         .response(.contactMessage(ContactMessage(format: .legacy, senderPrefix: prefix6, pathLength: .none, senderTimestamp: 100, text: "hi"))))
        try expectGolden("10 f6 0000" + prefixHex + "02 00" + le32(100) + text("hello"),
                         .response(.contactMessage(ContactMessage(snrX4: -10, senderPrefix: prefix6, pathLength: PathLength(raw: 2), senderTimestamp: 100, text: "hello"))))
        // Signed (room server relay): 4-byte author prefix before the text.
        try expectGolden("10 28 0000" + prefixHex + "ff 02" + le32(100) + "a1a2a3a4" + text("post"),
                         .response(.contactMessage(ContactMessage(snrX4: 40, senderPrefix: prefix6, pathLength: .none, textType: .signedPlain,
                                                                  senderTimestamp: 100, authorPrefix: KeyPrefix([0xA1, 0xA2, 0xA3, 0xA4]), text: "post"))))
        try expectGolden("10 00 0000" + prefixHex + "ff 01" + le32(1) + text("> ok"),
                         .response(.contactMessage(ContactMessage(senderPrefix: prefix6, pathLength: .none, textType: .cliData, senderTimestamp: 1, text: "> ok"))))
    }

    @Test func channelMessages() throws {
        try expectGolden("08 00 01 00" + le32(5) + text("Bob: hi"),
                         .response(.channelMessage(ChannelMessage(format: .legacy, channelIndex: 0, pathLength: PathLength(raw: 1), senderTimestamp: 5, text: "Bob: hi"))))
        let m = ChannelMessage(snrX4: 22, channelIndex: 3, pathLength: .none, senderTimestamp: 5, text: "Bob: a: b")
        try expectGolden("11 16 0000 03 ff 00" + le32(5) + text("Bob: a: b"), .response(.channelMessage(m)))
        #expect(m.senderAndBody.sender == "Bob" && m.senderAndBody.body == "a: b")
        #expect(m.snr == 5.5)
        try expectGolden("1b 0c 0000 02 01" + le16(0x0100) + "03 010203",
                         .response(.channelData(ChannelDataMessage(snrX4: 12, channelIndex: 2, pathLength: PathLength(raw: 1), dataType: 0x0100, data: [1, 2, 3]))))
    }

    @Test func exportAndKeys() throws {
        let advert = bytes("11 00" + keyHex + le32(10) + String(repeating: "ee", count: 64) + "81" + text("N"))
        try expectGolden("0b" + Hex.encode(advert), .response(.exportContact(advert: advert)))
        let pk = [UInt8](repeating: 7, count: 64)
        try expectGolden("0e" + Hex.encode(pk), .response(.privateKey(pk)))
        try expectGolden("13 00" + le32(8192), .response(.signStart(maxLength: 8192)))
        try expectGolden("14" + Hex.encode(pk), .response(.signature(pk)))
    }

    @Test func battery() throws {
        try expectGolden("0c" + le16(4100), .response(.batteryAndStorage(BatteryAndStorage(millivolts: 4100))))
        try expectGolden("0c" + le16(3900) + le32(120) + le32(2048),
                         .response(.batteryAndStorage(BatteryAndStorage(millivolts: 3900, storageUsedKiB: 120, storageTotalKiB: 2048))))
    }

    @Test func deviceInfoLayouts() throws {
        // v13 (current): 82 bytes.
        let v13 = "0d 0d af 28" + le32(123_456) + text("14 Aug 2026", width: 12) + text("RAK 4631", width: 40)
            + text("v1.17.1", width: 20) + "01 02"
        #expect(bytes(v13).count == 82)
        try expectGolden(v13, .response(.deviceInfo(DeviceInfo(protocolVersion: 13, maxContacts: 350, maxChannels: 40, blePin: 123_456,
                                                               buildDate: "14 Aug 2026", manufacturer: "RAK 4631", firmwareVersion: "v1.17.1",
                                                               clientRepeat: true, pathHashMode: 2))))
        // v9: client repeat only.
        let v9 = "0d 09 64 08" + le32(0) + text("15-Feb-2026", width: 12) + text("Heltec V3", width: 40) + text("v1.13.0", width: 20) + "00"
        try expectGolden(v9, .response(.deviceInfo(DeviceInfo(protocolVersion: 9, maxContacts: 200, maxChannels: 8, blePin: 0, buildDate: "15-Feb-2026",
                                                              manufacturer: "Heltec V3", firmwareVersion: "v1.13.0", clientRepeat: false))))
        // v3 .. v8: 80 bytes.
        let v3 = "0d 03 32 01" + le32(0) + text("19 Mar 2025", width: 12) + text("T-Echo", width: 40) + text("v1.4.0", width: 20)
        try expectGolden(v3, .response(.deviceInfo(DeviceInfo(protocolVersion: 3, maxContacts: 100, maxChannels: 1, blePin: 0, buildDate: "19 Mar 2025",
                                                              manufacturer: "T-Echo", firmwareVersion: "v1.4.0"))))
        // v2: bytes 2-7 reserved.
        let v2 = "0d 02" + zeros(6) + text("5 Mar 2025", width: 12) + text("Heltec V3", width: 40) + text("v1.0.0a", width: 20)
        try expectGolden(v2, .response(.deviceInfo(DeviceInfo(protocolVersion: 2, buildDate: "5 Mar 2025", manufacturer: "Heltec V3", firmwareVersion: "v1.0.0a"))))
        // v1: variable-length manufacturer in the rest of the frame.
        let v1 = "0d 01" + zeros(6) + text("19 Feb 2025", width: 12) + text("Heltec V3")
        try expectGolden(v1, .response(.deviceInfo(DeviceInfo(protocolVersion: 1, buildDate: "19 Feb 2025", manufacturer: "Heltec V3"))))
    }

    @Test func channelInfoAndScopes() throws {
        try expectGolden("12 01" + text("#test", width: 32) + "9cd8fcf22a47333b591d96a2b848b73f",
                         .response(.channelInfo(ChannelInfo(index: 1, name: "#test", secret: .hashtag("#test")))))
        let k16 = [UInt8](repeating: 0x22, count: 16)
        try expectGolden("1c" + text("nl", width: 31) + Hex.encode(k16), .response(.defaultFloodScope(FloodScope(name: "nl", key: k16))))
        try expectGolden("1c", .response(.defaultFloodScope(nil)))
    }

    @Test func tablesAndSettings() throws {
        try expectGolden("15" + text("gps:1,gps_interval:60"),
                         .response(.customVars([CustomVar(name: "gps", value: "1"), CustomVar(name: "gps_interval", value: "60")])))
        try expectGolden("15", .response(.customVars([])))
        // U+0600 is a prepend mark: as Characters it swallows the ':' after it. The firmware splits
        // bytes, and so does the codec (the fuzzer found a name that did not survive a round trip).
        try expectGolden("15" + text("a\u{0600}:1,b:2"),
                         .response(.customVars([CustomVar(name: "a\u{0600}", value: "1"), CustomVar(name: "b", value: "2")])))
        try expectGolden("16" + le32(77) + "02 a1b2", .response(.advertPath(AdvertPath(heardAt: 77, path: Path(length: PathLength(raw: 2), bytes: [0xA1, 0xB2])))))
        try expectGolden("17" + le32(0) + le32(1000), .response(.tuningParams(rxDelayBase: 0, airtimeFactor: 1000)))
        try expectGolden("19 1e", .response(.autoAddConfig(AutoAddConfig(bitmask: 0x1E))))
        try expectGolden("19 1f 02", .response(.autoAddConfig(AutoAddConfig(bitmask: 0x1F, maxHops: 2))))
        try expectGolden("1a" + le32(433_000) + le32(433_000) + le32(869_495) + le32(869_495) + le32(918_000) + le32(918_000),
                         .response(.allowedRepeatFreq([FrequencyRange(lowerKHz: 433_000, upperKHz: 433_000), FrequencyRange(lowerKHz: 869_495, upperKHz: 869_495),
                                                        FrequencyRange(lowerKHz: 918_000, upperKHz: 918_000)])))
    }

    @Test func stats() throws {
        try expectGolden("18 00" + le16(4012) + le32(3600) + le16(0) + "03",
                         .response(.stats(.core(CoreStats(batteryMillivolts: 4012, uptimeSeconds: 3600, errorFlags: 0, queueLength: 3)))))
        try expectGolden("18 01" + le16(UInt16(bitPattern: -118)) + "a6 1c" + le32(12) + le32(340),
                         .response(.stats(.radio(RadioStats(noiseFloor: -118, lastRSSI: -90, lastSNRx4: 28, txAirtimeSeconds: 12, rxAirtimeSeconds: 340)))))
        try expectGolden("18 02" + [1, 2, 3, 4, 5, 6, 7].map { le32($0) }.joined(),
                         .response(.stats(.packets(PacketStats(received: 1, sent: 2, sentFlood: 3, sentDirect: 4, receivedFlood: 5, receivedDirect: 6, receiveErrors: 7)))))
        // Legacy 26-byte packets frame (before 1.13.0).
        try expectGolden("18 02" + [1, 2, 3, 4, 5, 6].map { le32($0) }.joined(),
                         .response(.stats(.packets(PacketStats(received: 1, sent: 2, sentFlood: 3, sentDirect: 4, receivedFlood: 5, receivedDirect: 6, receiveErrors: nil)))))
    }

    @Test func everyResponseCodeIsCovered() {
        #expect(ResponseCode.allCases.map(\.rawValue) == Array(0...28))
    }

    @Test func shortOverlongAndUnknown() throws {
        #expect(try RadioFrame(decoding: [0x1D, 1]) == .response(.unknown(code: 0x1D, payload: [1])))
        #expect(try RadioFrame(decoding: [0x3F]) == .response(.unknown(code: 0x3F, payload: [])))
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("03" + keyHex)) }   // short contact
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("0a 00")) }         // over-long NO_MORE_MESSAGES
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("06 01 0102")) }    // short SENT
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("18 05 00")) }      // unknown stats type
        #expect(throws: CodecError.self) { try RadioFrame(decoding: bytes("1a 01020304")) }   // half a frequency pair
        do {
            _ = try RadioFrame(decoding: bytes("09 0102"))
            Issue.record("short CURR_TIME decoded")
        } catch let error as CodecError {
            #expect(error.description == "RESP_CODE_CURR_TIME: frame ends before time at offset 1 (needs 4 bytes, 2 left)")
        }
    }
}
