import MeshCodec

/// One radio -> app frame to feed meshcore_py: built as a typed value, encoded by our encoder.
struct FrameCase {
    let name: String
    let frame: RadioFrame
    var context: [RadioFrame] = []
    var pending: PendingBinary?

    init(_ name: String, _ frame: RadioFrame, context: [RadioFrame] = [], pending: PendingBinary? = nil) {
        self.name = name
        self.frame = frame
        self.context = context
        self.pending = pending
    }

    /// Encodes the frame, decodes it back and derives `expect` from the *decoded* value.
    func export() throws -> JSON {
        try inCase(name) {
            let bytes = try frame.encode()
            var state = ReaderState(pending: pending)
            var contextHex: [String] = []
            for f in context {
                let b = try f.encode()
                state.feed(try RadioFrame(decoding: b))
                contextHex.append(hex(b))
            }
            let expect = try Vocabulary.expect(try RadioFrame(decoding: bytes), state)
            var entry: JSON = ["name": name, "hex": hex(bytes), "expect": expect.json]
            if !contextHex.isEmpty { entry["context"] = contextHex }
            if let pending { entry["pending_binary"] = [pending.json] }
            return entry
        }
    }
}

private func path(_ hops: [[UInt8]], hashSize: Int) throws -> Path {
    try require(Path(hops: hops, hashSize: hashSize), "path of \(hops.count) x \(hashSize) bytes")
}

private func pathLength(hops: Int, hashSize: Int) throws -> PathLength {
    try require(PathLength(hops: hops, hashSize: hashSize), "path length \(hops) x \(hashSize)")
}

/// One Cayenne LPP record by type id.
func lpp(_ channel: UInt8, _ code: UInt8, _ values: Double...) throws -> LPPRecord {
    LPPRecord(channel: channel, type: try require(LPPType.named(code), "LPP type \(code)"), values: values)
}

/// A min/max/avg record of a binary MMA reply: channel, type, then three LPP values.
func mmaRecord(_ channel: UInt8, _ code: UInt8, _ stats: Double...) throws -> [UInt8] {
    [channel, code] + (try stats.flatMap { try CayenneLPP.encode([try lpp(channel, code, $0)]).dropFirst(2) })
}

/// 64 random-looking bytes (signatures, private keys).
func sample64(_ label: String) -> [UInt8] { SHA256.hash(Array((label + "/1").utf8)) + SHA256.hash(Array((label + "/2").utf8)) }

func frameCases(_ fx: Fixtures) throws -> [FrameCase] {
    let rpt = try fx.repeaterContact()
    let alice = Contact(publicKey: fx.alice, type: .chat, flags: [], outPath: .none, name: "Alice 🌻",
                        lastAdvert: 1_767_200_000, position: Coordinates(latitudeE6: 47_376_887, longitudeE6: 8_541_694),
                        lastModified: 1_767_225_800)
    let room = Contact(publicKey: fx.room, type: .room, flags: [.favourite], outPath: try path([], hashSize: 1),
                       name: "Stammtisch Zürich", lastAdvert: 1_767_100_000, lastModified: 1_767_225_900)
    let sensor = Contact(publicKey: fx.sensor, type: .sensor, flags: [.telemetryBase, .telemetryLocation, .telemetryEnvironment],
                         outPath: try path([[0x01, 0x02, 0x03], [0xFE, 0x00, 0x7F], [0x42, 0x42, 0x42]], hashSize: 3),
                         name: "Wetterstation-Südhang-Ölberg!", lastAdvert: 1_767_000_000,
                         position: Coordinates(latitudeE6: 51_507_351, longitudeE6: -127_758), lastModified: 1_767_226_000)
    // 30 ASCII bytes + a 2-byte character: the encoder must cut before the "é" to keep the NUL.
    var longName = alice
    longName.name = String(repeating: "x", count: 30) + "é"
    let start = RadioFrame.response(.contactsStart(total: 3))

    let selfInfo = SelfInfo(advertType: .chat, txPower: 22, maxTxPower: 30, publicKey: fx.companion,
                            position: Coordinates(latitudeE6: -41_286_460, longitudeE6: 174_776_236), multiAcks: 1, advertLocationPolicy: 1,
                            telemetryModes: TelemetryModes(base: 2, location: 1, environment: 0), manualAddContacts: 1,
                            radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5),
                            name: "Kiwi-Knoten ☕")
    var selfInfoLowPower = selfInfo
    selfInfoLowPower.txPower = -9
    selfInfoLowPower.manualAddContacts = 0
    selfInfoLowPower.position = Coordinates(latitudeE6: 37_774_929, longitudeE6: -122_419_416)
    selfInfoLowPower.radio = RadioParams(frequencyKHz: 910_525, bandwidthHz: 62_500, spreadingFactor: 7, codingRate: 8)
    selfInfoLowPower.name = "W6-Base"

    let companionAdvert = AdvertPacket(publicKey: fx.companion, timestamp: 1_767_225_000, signature: sample64("self advert"),
                                       appData: try AdvertAppData(type: .chat, position: selfInfo.position, name: selfInfo.name).encode())
    let heardAdvert = AdvertPacket(path: try path([[0xA3], [0x5F]], hashSize: 1), publicKey: fx.sensor, timestamp: 1_767_224_000,
                                   signature: sample64("sensor advert"),
                                   appData: try AdvertAppData(type: .sensor, position: Coordinates(latitudeE6: -22_906_847, longitudeE6: -43_172_896),
                                                              name: "Estação Rio").encode())
    let scopedAdvert = AdvertPacket(header: 0x10, transportCodes: [0x81, 0x73, 0x00, 0x00], path: try path([[0x5F, 0xA3]], hashSize: 2),
                                    publicKey: fx.repeater, timestamp: 1_767_223_000, signature: sample64("repeater advert"),
                                    appData: try AdvertAppData(type: .repeater, feature1: 0x0102, name: "Hochwacht").encode())
    // Raw on-air packets the codec carries opaquely: header, [transport codes], path_len, path, payload.
    let groupText: [UInt8] = [0x14, 0x81, 0x73, 0x00, 0x00, try pathLength(hops: 2, hashSize: 2).raw, 0xA3, 0x7F, 0xC3, 0x34]
        + [0x11, 0x34, 0x30] + Array(SHA256.hash(Array("channel ciphertext".utf8)).prefix(32))
    let directText: [UInt8] = [0x0A, try pathLength(hops: 1, hashSize: 1).raw, 0x5F, 0x9C, 0x4E, 0xB1, 0x07]
        + Array(SHA256.hash(Array("dm ciphertext".utf8)).prefix(16))
    let floodAck: [UInt8] = [0x0D, 0x00] + le32(0x1654_99D9)

    let status = RepeaterStatus(batteryMillivolts: 4_105, txQueueLength: 2, noiseFloor: -117, lastRSSI: -81, packetsReceived: 123_456,
                                packetsSent: 65_432, airtimeSeconds: 3_611, uptimeSeconds: 1_209_600, sentFlood: 40_000, sentDirect: 25_432,
                                receivedFlood: 100_000, receivedDirect: 23_456, fullEvents: 3, lastSNRx4: -26, directDuplicates: 77,
                                floodDuplicates: 1_234, rxAirtimeSeconds: 54_321, receiveErrors: 98)
    var legacyStatus = status
    legacyStatus.receiveErrors = nil

    let environment = try CayenneLPP.encode([
        try lpp(1, 116, 4.12), try lpp(2, 103, -7.5), try lpp(2, 104, 63.5), try lpp(2, 115, 1013.2),
        try lpp(3, 136, -33.8688, 151.2093, 58.3), try lpp(4, 117, 0.25), try lpp(4, 128, 12), try lpp(5, 101, 840),
    ])
    let gadgets = try CayenneLPP.encode([
        try lpp(1, 0, 1), try lpp(1, 1, 0), try lpp(2, 2, -1.25), try lpp(2, 3, 3.3), try lpp(3, 113, 0.012, -0.981, 0.05),
        try lpp(4, 134, 1.5, -2.25, 0), try lpp(5, 135, 255, 128, 0), try lpp(6, 120, 87), try lpp(7, 121, -12),
        try lpp(8, 125, 415), try lpp(9, 130, 12.345), try lpp(10, 131, 1.5), try lpp(11, 132, 270),
        try lpp(12, 133, 1_767_225_600), try lpp(13, 142, 1), try lpp(14, 102, 1), try lpp(15, 100, 123_456),
        try lpp(16, 118, 868),
    ])
    let channelZero = try CayenneLPP.encode([try lpp(1, 116, 3.95), try lpp(0, 103, 18.5)])
    let mma = le32(1_767_220_000) + (try mmaRecord(1, 103, -2.5, 14.1, 6.3)) + (try mmaRecord(2, 104, 40, 80, 61.5))
        + (try mmaRecord(3, 116, 3.61, 4.18, 3.9))
    let acl = fx.alice.prefix().bytes + [3] + [UInt8](repeating: 0, count: 6) + [0] + fx.room.prefix().bytes + [1]
    let neighbours = le16(5) + le16(2) + fx.repeater.prefix(4).bytes + le32(120) + [22]
        + fx.sensor.prefix(4).bytes + le32(3_600) + [UInt8(bitPattern: -14)]
    func pending(_ kind: PendingBinary.Kind, _ tag: UInt32) -> PendingBinary {
        PendingBinary(kind: kind, tag: AckCode(tag), prefix: fx.repeater.prefix())
    }
    func binary(_ tag: UInt32, _ data: [UInt8]) -> RadioFrame { .push(.binaryResponse(tag: AckCode(tag), data: data)) }

    return [
        // ---- 0x00-0x04: OK, ERR, contact stream
        FrameCase("resp.ok", .response(.ok(value: nil))),
        FrameCase("resp.ok.with_value", .response(.ok(value: 1_767_225_600))),
        FrameCase("resp.err.not_found", .response(.error(.notFound))),
        FrameCase("resp.err.illegal_arg", .response(.error(.illegalArgument))),
        FrameCase("resp.err.bad_state", .response(.error(.badState))),
        FrameCase("resp.err.legacy_no_code", .response(.error(.unspecified))),
        FrameCase("contacts_start.no_event", start),
        FrameCase("contact.repeater_2byte_path", .response(.contact(rpt)), context: [start]),
        FrameCase("contact.flood_path", .response(.contact(alice)), context: [start]),
        FrameCase("contact.zero_hop", .response(.contact(room)), context: [start]),
        FrameCase("contact.3byte_hashes_31byte_name", .response(.contact(sensor)), context: [start]),
        FrameCase("contact.name_cut_at_char_boundary", .response(.contact(longName)), context: [start]),
        FrameCase("contact.by_key_outside_stream", .response(.contact(alice))),
        FrameCase("contacts.end", .response(.endOfContacts(lastModified: room.lastModified)),
                  context: [start, .response(.contact(rpt)), .response(.contact(alice)), .response(.contact(room))]),
        FrameCase("contacts.end_empty", .response(.endOfContacts(lastModified: 0)), context: [start]),
        // ---- 0x05-0x0B
        FrameCase("self_info", .response(.selfInfo(selfInfo))),
        FrameCase("self_info.negative_tx_power", .response(.selfInfo(selfInfoLowPower))),
        FrameCase("resp.sent.flood", .response(.sent(Sent(flood: true, ackCode: AckCode(0x9F3A_11C4), suggestedTimeoutMs: 9_400)))),
        FrameCase("resp.sent.direct", .response(.sent(Sent(flood: false, ackCode: AckCode(0x0000_BEEF), suggestedTimeoutMs: 2_130)))),
        FrameCase("msg.contact_v3.plain", .response(.contactMessage(ContactMessage(
            format: .v3, snrX4: 38, senderPrefix: fx.alice.prefix(), pathLength: try pathLength(hops: 2, hashSize: 1),
            senderTimestamp: 1_767_225_001, text: "Grüezi! 🏔️ bis morn")))),
        FrameCase("msg.contact_v3.signed_direct", .response(.contactMessage(ContactMessage(
            format: .v3, snrX4: -22, senderPrefix: fx.room.prefix(), pathLength: .none, textType: .signedPlain,
            senderTimestamp: 1_767_225_002, authorPrefix: fx.alice.prefix(4), text: "Treffen um 19:00?")))),
        FrameCase("msg.contact_v3.cli_reply", .response(.contactMessage(ContactMessage(
            format: .v3, snrX4: 9, senderPrefix: fx.repeater.prefix(), pathLength: try pathLength(hops: 1, hashSize: 2),
            textType: .cliData, senderTimestamp: 1_767_225_003, text: "> clock: 12:03 - 1/1/2026 UTC")))),
        FrameCase("msg.contact_legacy.direct", .response(.contactMessage(ContactMessage(
            format: .legacy, senderPrefix: fx.alice.prefix(), pathLength: .none, senderTimestamp: 1_767_225_004, text: "yo")))),
        FrameCase("msg.contact_legacy.signed", .response(.contactMessage(ContactMessage(
            format: .legacy, senderPrefix: fx.room.prefix(), pathLength: try pathLength(hops: 3, hashSize: 1), textType: .signedPlain,
            senderTimestamp: 1_767_225_005, authorPrefix: fx.sensor.prefix(4), text: "Wer kommt mit? 🍺")))),
        FrameCase("msg.channel_v3", .response(.channelMessage(ChannelMessage(
            format: .v3, snrX4: 28, channelIndex: 3, pathLength: try pathLength(hops: 3, hashSize: 2),
            senderTimestamp: 1_767_225_006, text: "Bob: Hallo zäme")))),
        FrameCase("msg.channel_v3.direct", .response(.channelMessage(ChannelMessage(
            format: .v3, snrX4: -40, channelIndex: 0, pathLength: .none, senderTimestamp: 1_767_225_007, text: "Ana: ¿qué tal?")))),
        FrameCase("msg.channel_legacy", .response(.channelMessage(ChannelMessage(
            format: .legacy, channelIndex: 1, pathLength: try pathLength(hops: 4, hashSize: 1), senderTimestamp: 1_767_225_008,
            text: "Al: x")))),
        FrameCase("msg.channel_legacy.direct", .response(.channelMessage(ChannelMessage(
            format: .legacy, channelIndex: 39, pathLength: .none, senderTimestamp: 1_767_225_009, text: "Zoë: 👋")))),
        FrameCase("resp.curr_time", .response(.currentTime(1_767_312_000))),
        FrameCase("resp.no_more_messages", .response(.noMoreMessages)),
        FrameCase("resp.export_contact.self", .response(.exportContact(advert: companionAdvert.encode()))),
        FrameCase("resp.export_contact.heard_2_hops", .response(.exportContact(advert: heardAdvert.encode()))),
        // ---- 0x0C-0x11
        FrameCase("resp.battery", .response(.batteryAndStorage(BatteryAndStorage(millivolts: 4_012, storageUsedKiB: 128, storageTotalKiB: 1_024)))),
        FrameCase("resp.battery.legacy", .response(.batteryAndStorage(BatteryAndStorage(millivolts: 3_911)))),
        FrameCase("resp.device_info_v1", .response(.deviceInfo(DeviceInfo(protocolVersion: 1, buildDate: "15-Feb-2025", manufacturer: "Heltec V3")))),
        FrameCase("resp.device_info_v2", .response(.deviceInfo(DeviceInfo(protocolVersion: 2, buildDate: "03-Mar-2025", manufacturer: "Heltec V3",
                                                                          firmwareVersion: "v1.3.0")))),
        FrameCase("resp.device_info_v3", .response(.deviceInfo(DeviceInfo(protocolVersion: 3, maxContacts: 350, maxChannels: 8, blePin: 0,
                                                                          buildDate: "20-Apr-2025", manufacturer: "Seeed Wio Tracker L1",
                                                                          firmwareVersion: "v1.4.2")))),
        FrameCase("resp.device_info_v9", .response(.deviceInfo(DeviceInfo(protocolVersion: 9, maxContacts: 100, maxChannels: 40, blePin: 654_321,
                                                                          buildDate: "02-Dec-2025", manufacturer: "LilyGo T-Echo",
                                                                          firmwareVersion: "v1.13.0", clientRepeat: false)))),
        FrameCase("resp.device_info_v10", .response(.deviceInfo(DeviceInfo(protocolVersion: 10, maxContacts: 350, maxChannels: 40, blePin: 0,
                                                                           buildDate: "30-Jan-2026", manufacturer: "Heltec V4",
                                                                           firmwareVersion: "v1.14.0", clientRepeat: false, pathHashMode: 2)))),
        FrameCase("resp.device_info_v13", .response(.deviceInfo(DeviceInfo(protocolVersion: 13, maxContacts: 350, maxChannels: 40, blePin: 123_456,
                                                                           buildDate: "14 Aug 2026", manufacturer: "RAK 4631",
                                                                           firmwareVersion: "v1.17.1-c6b469f", clientRepeat: true, pathHashMode: 1)))),
        FrameCase("resp.private_key", .response(.privateKey(sample64("private key")))),
        FrameCase("resp.disabled", .response(.disabled)),
        // ---- 0x12-0x1C
        FrameCase("resp.channel_info.public", .response(.channelInfo(ChannelInfo(index: 0, name: ChannelSecret.publicChannelName,
                                                                                 secret: .publicChannel)))),
        FrameCase("resp.channel_info.hashtag", .response(.channelInfo(ChannelInfo(index: 4, name: "#zürich", secret: .hashtag("#zürich"))))),
        FrameCase("resp.channel_info.empty_slot", .response(.channelInfo(ChannelInfo(index: 7, name: "", secret: .empty)))),
        FrameCase("resp.sign_start", .response(.signStart(maxLength: 8_192))),
        FrameCase("resp.signature", .response(.signature(sample64("signature")))),
        FrameCase("resp.custom_vars", .response(.customVars([CustomVar(name: "gps", value: "1"), CustomVar(name: "gps_interval", value: "900")]))),
        FrameCase("resp.custom_vars.empty", .response(.customVars([]))),
        FrameCase("resp.advert_path", .response(.advertPath(AdvertPath(heardAt: 1_767_225_100,
                                                                       path: try path([[0x12, 0x34], [0x56, 0x78]], hashSize: 2))))),
        FrameCase("resp.advert_path.zero_hop", .response(.advertPath(AdvertPath(heardAt: 1_767_225_200, path: try path([], hashSize: 1))))),
        FrameCase("resp.tuning", .response(.tuningParams(rxDelayBase: 2_500, airtimeFactor: 1_000))),
        FrameCase("resp.stats_core", .response(.stats(.core(CoreStats(batteryMillivolts: 3_987, uptimeSeconds: 1_209_600, errorFlags: 0x0005,
                                                                      queueLength: 3))))),
        FrameCase("resp.stats_radio", .response(.stats(.radio(RadioStats(noiseFloor: -118, lastRSSI: -97, lastSNRx4: -30,
                                                                         txAirtimeSeconds: 3_600, rxAirtimeSeconds: 86_400))))),
        FrameCase("resp.stats_packets", .response(.stats(.packets(PacketStats(received: 123_456, sent: 65_432, sentFlood: 40_000, sentDirect: 25_432,
                                                                             receivedFlood: 100_000, receivedDirect: 23_456, receiveErrors: 98))))),
        FrameCase("resp.stats_packets.legacy_26_bytes", .response(.stats(.packets(PacketStats(received: 10, sent: 20, sentFlood: 5, sentDirect: 15,
                                                                                             receivedFlood: 6, receivedDirect: 4, receiveErrors: nil))))),
        FrameCase("resp.autoadd_config", .response(.autoAddConfig(AutoAddConfig(bitmask: 0x1F, maxHops: 3)))),
        FrameCase("resp.autoadd_config.legacy", .response(.autoAddConfig(AutoAddConfig(bitmask: 0x0E)))),
        FrameCase("resp.allowed_repeat_freq", .response(.allowedRepeatFreq([
            FrequencyRange(lowerKHz: 433_000, upperKHz: 433_000), FrequencyRange(lowerKHz: 869_495, upperKHz: 869_495),
            FrequencyRange(lowerKHz: 918_000, upperKHz: 918_000)]))),
        FrameCase("resp.allowed_repeat_freq.none", .response(.allowedRepeatFreq([]))),
        FrameCase("msg.channel_data.flood", .response(.channelData(ChannelDataMessage(
            snrX4: -8, channelIndex: 1, pathLength: try pathLength(hops: 2, hashSize: 1), dataType: 0x0100,
            data: Array("{\"t\":21.5}".utf8))))),
        FrameCase("msg.channel_data.direct", .response(.channelData(ChannelDataMessage(
            snrX4: 14, channelIndex: 2, pathLength: .none, dataType: 0xFFFF, data: [0x01, 0x02, 0x03])))),
        FrameCase("resp.default_scope", .response(.defaultFloodScope(FloodScope(name: "#österreich", key: ChannelSecret.hashtag("österreich").bytes)))),
        FrameCase("resp.default_scope.none", .response(.defaultFloodScope(nil))),
        // ---- pushes 0x80-0x87
        FrameCase("push.advert", .push(.advert(fx.alice))),
        FrameCase("push.path_updated", .push(.pathUpdated(fx.repeater))),
        FrameCase("push.ack", .push(.sendConfirmed(ackCode: AckCode(0x1654_99D9), roundTripMs: 2_345))),
        FrameCase("push.msg_waiting", .push(.messageWaiting)),
        FrameCase("push.raw_data", .push(.rawData(ReceivedPacket(snrX4: 40, rssi: -75, extra: 0xFF, payload: [0xCA, 0xFE, 0xF0, 0x0D, 0x00, 0x2A])))),
        FrameCase("push.login_success.legacy", .push(.loginSuccess(LoginSuccess(permissions: 0, serverPrefix: fx.repeater.prefix())))),
        FrameCase("push.login_success.with_time", .push(.loginSuccess(LoginSuccess(permissions: 1, serverPrefix: fx.repeater.prefix(),
                                                                                   serverTimestamp: 1_767_225_300)))),
        FrameCase("push.login_success.with_acl", .push(.loginSuccess(LoginSuccess(permissions: 0, serverPrefix: fx.room.prefix(),
                                                                                  serverTimestamp: 1_767_225_301, aclPermissions: 1)))),
        FrameCase("push.login_success.full", .push(.loginSuccess(LoginSuccess(permissions: 1, serverPrefix: fx.repeater.prefix(),
                                                                              serverTimestamp: 1_767_225_302, aclPermissions: 3, firmwareLevel: 2)))),
        FrameCase("push.login_fail", .push(.loginFail(fx.room.prefix()))),
        FrameCase("push.status_response", .push(.statusResponse(fx.repeater.prefix(), blob: status.blob))),
        FrameCase("push.status_response.legacy_52_bytes", .push(.statusResponse(fx.repeater.prefix(), blob: legacyStatus.blob))),
        FrameCase("push.status_response.not_a_status", .push(.statusResponse(fx.sensor.prefix(), blob: [0x01, 0x02, 0x03, 0x04]))),
        // ---- 0x88 RX log
        FrameCase("push.rx_log.advert_flood", .push(.logRxData(ReceivedPacket(snrX4: 41, rssi: -90, payload: heardAdvert.encode())))),
        FrameCase("push.rx_log.advert_scoped", .push(.logRxData(ReceivedPacket(snrX4: -13, rssi: -118, payload: scopedAdvert.encode())))),
        FrameCase("push.rx_log.group_text_scoped", .push(.logRxData(ReceivedPacket(snrX4: 22, rssi: -101, payload: groupText)))),
        FrameCase("push.rx_log.text_direct", .push(.logRxData(ReceivedPacket(snrX4: 30, rssi: -64, payload: directText)))),
        FrameCase("push.rx_log.ack_flood", .push(.logRxData(ReceivedPacket(snrX4: -2, rssi: -110, payload: floodAck)))),
        // ---- 0x89-0x90
        FrameCase("push.trace.1byte_hashes", .push(.traceData(TraceData(flags: 0, tag: 0x1122_3344, authCode: 7, pathHashes: [0x5F, 0xA3, 0x0C],
                                                                         hopSNRx4: [40, -20, 13], finalSNRx4: 12)))),
        FrameCase("push.trace.2byte_hashes", .push(.traceData(TraceData(flags: 1, tag: 0xCAFE_0001, authCode: 0xDEAD_BEEF,
                                                                         pathHashes: [0x5F, 0xA3, 0x0C, 0x1D], hopSNRx4: [-8, 22], finalSNRx4: -3)))),
        FrameCase("push.trace.4byte_hashes", .push(.traceData(TraceData(flags: 2, tag: 0x0000_0101, authCode: 1,
                                                                         pathHashes: fx.repeater.prefix(4).bytes, hopSNRx4: [-37], finalSNRx4: 50)))),
        FrameCase("push.trace.zero_hops", .push(.traceData(TraceData(flags: 0, tag: 5, authCode: 0, pathHashes: [], hopSNRx4: [], finalSNRx4: 12)))),
        FrameCase("push.new_advert", .push(.newAdvert(sensor))),
        FrameCase("push.telemetry.environment", .push(.telemetryResponse(fx.sensor.prefix(), lpp: environment))),
        FrameCase("push.telemetry.all_value_shapes", .push(.telemetryResponse(fx.companion.prefix(), lpp: gadgets))),
        FrameCase("push.telemetry.channel_zero", .push(.telemetryResponse(fx.sensor.prefix(), lpp: channelZero))),
        FrameCase("push.binary.untracked", binary(0x0102_0304, [0x99, 0x98, 0x00, 0x42])),
        FrameCase("push.binary.status", binary(0xDDCC_BBAA, status.blob), pending: pending(.STATUS, 0xDDCC_BBAA)),
        FrameCase("push.binary.status_legacy_52_bytes", binary(0xDDCC_BBAB, legacyStatus.blob), pending: pending(.STATUS, 0xDDCC_BBAB)),
        FrameCase("push.binary.telemetry", binary(0x5EED_0001, environment), pending: pending(.TELEMETRY, 0x5EED_0001)),
        FrameCase("push.binary.acl", binary(0x5EED_0002, acl), pending: pending(.ACL, 0x5EED_0002)),
        FrameCase("push.binary.neighbours", binary(0x5EED_0003, neighbours), pending: pending(.NEIGHBOURS, 0x5EED_0003)),
        FrameCase("push.binary.mma", binary(0x5EED_0004, mma), pending: pending(.MMA, 0x5EED_0004)),
        FrameCase("push.binary.other_tag", binary(0x5EED_0005, [0x01]), pending: pending(.STATUS, 0x5EED_0006)),
        FrameCase("push.path_discovery", .push(.pathDiscoveryResponse(PathDiscoveryResponse(
            prefix: fx.repeater.prefix(), outPath: try path([[0x12, 0x34]], hashSize: 2), inPath: try path([[0x56], [0x78]], hashSize: 1))))),
        FrameCase("push.path_discovery.zero_hop", .push(.pathDiscoveryResponse(PathDiscoveryResponse(
            prefix: fx.alice.prefix(), outPath: try path([], hashSize: 1), inPath: try path([], hashSize: 1))))),
        FrameCase("push.control.discover_request_heard", .push(.controlData(ReceivedPacket(snrX4: -12, rssi: -60, extra: 0,
                                                                                           payload: [0x81, 0x04] + le32(9))))),
        FrameCase("push.control.discover_prefix", .push(.controlData(ReceivedPacket(snrX4: 24, rssi: -80, extra: 0,
                                                                                    payload: [0x92, 36] + le32(0xCAFE_BABE) + fx.repeater.prefix(8).bytes)))),
        FrameCase("push.control.discover_full_key", .push(.controlData(ReceivedPacket(snrX4: -6, rssi: -107, extra: 0,
                                                                                      payload: [0x93, UInt8(bitPattern: -10)] + le32(0x0102_0304) + fx.room.bytes)))),
        FrameCase("push.contact_deleted", .push(.contactDeleted(fx.sensor))),
        FrameCase("push.contacts_full", .push(.contactsFull)),
    ]
}
