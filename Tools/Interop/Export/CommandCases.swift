import Foundation
import MeshCodec

/// One meshcore_py command method call and the frame(s) our encoder produces for the same intent.
struct CommandCase {
    let name: String
    let call: String
    var args: [Any]
    var kwargs: JSON
    /// Radio frames fed to meshcore_py before the call (e.g. a contact stream).
    var context: [RadioFrame]
    /// Reply frames per sent frame, when the script's default replies do not fit.
    var replies: [[RadioFrame]]?
    /// `random`, `time`: what the script patches in during the call.
    var extra: JSON
    /// Every frame the method sends; a single frame is compared with the last one meshcore_py sent.
    let sends: [Command]

    init(_ name: String, _ call: String, args: [Any] = [], kwargs: JSON = [:], context: [RadioFrame] = [],
         replies: [[RadioFrame]]? = nil, extra: JSON = [:], _ sends: Command...) {
        self.name = name
        self.call = call
        self.args = args
        self.kwargs = kwargs
        self.context = context
        self.replies = replies
        self.extra = extra
        self.sends = sends
    }

    func export() throws -> JSON {
        try inCase(name) {
            let frames = try sends.map { hex(try $0.encode()) }
            guard let only = frames.first else { throw ExportError("no frames") }
            var entry: JSON = ["name": name, "call": call, "args": args, "kwargs": kwargs,
                               "hex": frames.count == 1 ? only as Any : frames as Any]
            if !context.isEmpty { entry["context"] = try context.map { hex(try $0.encode()) } }
            if let replies { entry["replies"] = try replies.map { try $0.map { hex(try $0.encode()) } } }
            return entry.merging(extra) { $1 }
        }
    }
}

/// The command set of the script's self-test (same calls, arguments and keyword arguments), plus
/// a few more methods and realistic values. Arguments are derived from the same Swift values the
/// commands are built from.
func commandCases(_ fx: Fixtures) throws -> [CommandCase] {
    let pk = try require(PublicKey(Array(0xA0...0xBF)), "key a0..bf")
    let pk2 = try require(PublicKey(Array(0x10...0x2F)), "key 10..2f")
    let prefix = pk.prefix()
    let appStart = Command.appStart(AppStart(appName: "mccli"))
    let deviceQuery = Command.deviceQuery(appTargetVersion: 3)
    func text(_ t: String, _ ts: UInt32, attempt: UInt8 = 0, type: TextType = .plain, to: KeyPrefix = prefix) -> Command {
        .sendTextMessage(SendTextMessage(textType: type, attempt: attempt, timestamp: ts, recipient: to, text: t))
    }
    func radio(_ p: RadioParams) -> [Any] { [p.frequencyMHz, p.bandwidthKHz, Int(p.spreadingFactor), Int(p.codingRate)] }
    func coords(_ c: Coordinates) -> [Any] { [c.latitude, c.longitude] }
    func set(_ name: String, _ c: Coordinates) -> CommandCase {
        CommandCase(name, "set_coords", args: coords(c), .setAdvertLatLon(c, altitude: 0))
    }
    func setRadio(_ name: String, _ p: RadioParams, repeat on: Bool? = nil) -> CommandCase {
        CommandCase(name, "set_radio", args: radio(p), kwargs: on.map { ["repeat": $0 ? 1 : 0] } ?? [:], .setRadioParams(p, clientRepeat: on))
    }
    func setChannel(_ name: String, _ c: ChannelInfo, secret: Bool = true) -> CommandCase {
        CommandCase(name, "set_channel", args: channelArgs(c, secret: secret), .setChannel(c))
    }
    func channelArgs(_ c: ChannelInfo, secret: Bool = true) -> [Any] {
        [Int(c.index), c.name] + (secret ? [bytesArg(c.secret.bytes)] : [])
    }
    func trace(_ t: TraceRequest) -> JSON {
        let size = 1 << Int(t.flags & 3)
        let hops = stride(from: 0, to: t.path.count, by: size).map { hex(t.path[$0..<min($0 + size, t.path.count)]) }
        return ["auth_code": Int(t.authCode), "tag": Int(t.tag), "path": hops.joined(separator: ",")]
    }
    func channelData(_ d: SendChannelData) -> (args: [Any], kwargs: JSON) {
        let args: [Any] = [Int(d.channelIndex), Int(d.dataType), bytesArg(d.payload)]
        if d.path.length.isNone { return (args, [:]) }
        return (args, ["path": bytesArg(d.path.bytes), "path_hash_mode": d.path.length.hashSize - 1])
    }
    /// Anonymous request: type byte, then the reply path (the contact's out path reversed per hop).
    func anon(_ type: UInt8, _ key: PublicKey, via out: Path = Path(length: PathLength(raw: 0), bytes: [])) throws -> Command {
        let back = try require(Path(hops: out.hops.reversed(), hashSize: out.length.hashSize), "reply path")
        return .sendAnonRequest(key, data: [type, back.length.raw] + back.bytes)
    }
    let public16 = ChannelSecret.publicChannel

    // The contact the self-test adds / re-paths (a repeater with a 2-hop path of 2-byte hashes).
    let added = Contact(publicKey: pk2, type: .repeater, flags: ContactFlags(rawValue: 3),
                        outPath: try require(Path(hops: [[0xAA, 0x00], [0xBB, 0xCC]], hashSize: 2), "path"), name: "Rpt",
                        lastAdvert: 1_700_000_100, position: Coordinates(latitudeE6: -33_868_800, longitudeE6: 151_209_300),
                        lastModified: 1_700_000_200)
    var flagged = added
    flagged.flags = [.favourite, .telemetryEnvironment]
    var repathed = added
    repathed.outPath = try require(Path(hops: [[0x01], [0x02], [0x03]], hashSize: 1), "new path")
    // The path hash mode change_contact_path asks the radio for.
    let deviceInfo = DeviceInfo(protocolVersion: 13, maxContacts: 350, maxChannels: 40, blePin: 0, buildDate: "14 Aug 2026",
                                manufacturer: "RAK 4631", firmwareVersion: "v1.17.1", clientRepeat: false,
                                pathHashMode: UInt8(repathed.outPath.length.hashSize - 1))
    let contactStream: [RadioFrame] = [.response(.contactsStart(total: 1)), .response(.contact(added)),
                                       .response(.endOfContacts(lastModified: added.lastModified))]

    let card = AdvertPacket(publicKey: pk, timestamp: 1_700_000_600, signature: [UInt8](repeating: 0, count: 64),
                            appData: try AdvertAppData(type: .chat, position: Coordinates(latitudeE6: 52_520_000, longitudeE6: 13_405_000),
                                                       name: "Node").encode()).encode()
    let privateKey = Array(UInt8(0)...UInt8(63))
    let signed = Array("abcde".utf8)
    let otherParams = OtherParams(manualAddContacts: 1, telemetryModes: TelemetryModes(base: 1, location: 1, environment: 2),
                                  advertLocationPolicy: 1)
    // A SELF_INFO reply for the read-modify-write setters (set_multi_acks & co.).
    let infos = SelfInfo(txPower: 22, maxTxPower: 30, publicKey: pk, multiAcks: 0, advertLocationPolicy: 1,
                         telemetryModes: TelemetryModes(base: 2, location: 1, environment: 0), manualAddContacts: 1,
                         radio: RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5), name: "Kiwi")
    func rewrite(_ f: (inout OtherParams) -> Void) -> Command {
        var p = OtherParams(manualAddContacts: infos.manualAddContacts, telemetryModes: infos.telemetryModes,
                            advertLocationPolicy: infos.advertLocationPolicy, multiAcks: infos.multiAcks)
        f(&p)
        return .setOtherParams(p)
    }
    func otherArgs(_ p: OtherParams) -> [Any] {
        let modes = p.telemetryModes ?? TelemetryModes(rawValue: 0)
        return [p.manualAddContacts != 0, Int(modes.base), Int(modes.location), Int(modes.environment), Int(p.advertLocationPolicy ?? 0)]
    }
    let readModifyWrite: [[RadioFrame]] = [[.response(.selfInfo(infos))], [.response(.ok(value: nil))]]

    let flood = SendChannelData(channelIndex: 2, dataType: 0xFFFF, payload: [1, 2, 3, 4])
    let big = SendChannelData(channelIndex: 2, dataType: 0x0100, payload: [UInt8](repeating: 0, count: 165))
    let routed = SendChannelData(channelIndex: 1, path: try require(Path(hops: [[0x12, 0x34]], hashSize: 2), "path"),
                                 dataType: 0x0100, payload: [5])
    let routed3 = SendChannelData(channelIndex: 5, path: try require(Path(hops: [[0x0A, 0x0B, 0x0C], [0x0D, 0x0E, 0x0F]], hashSize: 3), "path"),
                                  dataType: 0x0120, payload: Array("Grüße".utf8))
    let traceReq = TraceRequest(tag: 0x1122_3344, authCode: 0, flags: 0, path: [0x5F, 0xA3])
    let trace2 = TraceRequest(tag: 0xCAFE_0001, authCode: 0x0BAD_F00D, flags: 1, path: [0x5F, 0xA3, 0x0C, 0x1D])
    let neighboursRandom: UInt32 = 0xDEAD_BEEF
    let scopeEU = FloodScope(name: "#eu", key: FloodScope(region: "eu").key)
    let wellington = Coordinates(latitudeE6: -41_286_460, longitudeE6: 174_776_236)

    return [
        CommandCase("app_start", "send_appstart", appStart),
        CommandCase("device_query", "send_device_query", deviceQuery),
        CommandCase("send_txt_msg", "send_msg", args: [pk.hex, "hi"], kwargs: ["timestamp": 1_700_000_000], text("hi", 1_700_000_000)),
        CommandCase("send_txt_msg.default_time", "send_msg", args: [pk.hex, "x"], extra: ["time": 1_700_000_001], text("x", 1_700_000_001)),
        CommandCase("send_channel_txt_msg", "send_chan_msg", args: [2, "hello", 1_700_000_000],
                    .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 2, timestamp: 1_700_000_000, text: "hello"))),
        CommandCase("get_contacts.since", "get_contacts", kwargs: ["lastmod": 1_700_000_000], .getContacts(since: 1_700_000_000)),
        CommandCase("get_contacts.all", "get_contacts", .getContacts(since: nil)),
        CommandCase("set_device_time", "set_time", args: [1_700_000_000], .setDeviceTime(1_700_000_000)),
        CommandCase("send_self_advert.flood", "send_advert", kwargs: ["flood": true], .sendSelfAdvert(flood: true)),
        CommandCase("set_advert_name", "set_name", args: ["Nodé"], .setAdvertName("Nodé")),
        setRadio("set_radio_params", RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 5)),
        setRadio("set_radio_params.repeat", RadioParams(frequencyKHz: 433_175, bandwidthHz: 62_500, spreadingFactor: 9, codingRate: 8), repeat: true),
        set("set_advert_latlon", Coordinates(latitude: 47.123456, longitude: -122.654321)),
        set("set_advert_latlon.rounding", Coordinates(latitude: -132.591998, longitude: 0)),   // KNOWN: int() truncation
        CommandCase("reset_path", "reset_path", args: [pk.hex], .resetPath(pk)),
        CommandCase("remove_contact", "remove_contact", args: [pk.hex], .removeContact(pk)),
        CommandCase("share_contact", "share_contact", args: [pk.hex], .shareContact(pk)),
        CommandCase("export_contact.self", "export_contact", .exportContact(nil)),
        CommandCase("reboot", "reboot", .reboot),
        CommandCase("get_batt_and_storage", "get_bat", .getBatteryAndStorage),
        CommandCase("set_tuning_params", "set_tuning", args: [500, 1_000], .setTuningParams(rxDelayBase: 500, airtimeFactor: 1_000)),  // KNOWN
        CommandCase("set_tx_power", "set_tx_power", args: [22], .setRadioTxPower(22)),                      // KNOWN §10.1
        CommandCase("set_tx_power.negative", "set_tx_power", args: [-9], .setRadioTxPower(-9)),             // KNOWN §10.1
        CommandCase("has_connection", "has_connection", .hasConnection(pk)),                                // KNOWN §10.1
        CommandCase("factory_reset", "confirm_factory_reset", .factoryReset),                               // KNOWN §10.1
        CommandCase("set_advert_name.long", "set_name", args: [String(repeating: "N", count: 40)],
                    .setAdvertName(String(repeating: "N", count: 40))),                                     // KNOWN
        setChannel("set_channel.long_name", ChannelInfo(index: 2, name: String(repeating: "C", count: 40), secret: public16)),  // KNOWN
        CommandCase("get_channel", "get_channel", args: [3], .getChannel(3)),
        setChannel("set_channel.hashtag", ChannelInfo(index: 1, name: "#test", secret: .hashtag("#test")), secret: false),
        setChannel("set_channel.secret", ChannelInfo(index: 0, name: ChannelSecret.publicChannelName, secret: public16)),
        CommandCase("send_trace", "send_trace", kwargs: trace(traceReq), .sendTracePath(traceReq)),
        CommandCase("set_device_pin", "set_devicepin", args: [123_456], .setDevicePin(123_456)),
        CommandCase("send_telemetry_req.self", "get_self_telemetry", .sendTelemetryRequest(nil, reserved: [0, 0, 0])),
        CommandCase("get_advert_path", "get_advert_path", args: [pk.hex], .getAdvertPath(pk, reserved: 0)),
        CommandCase("send_binary_req.status", "req_status_sync", args: [pk.hex], .sendBinaryRequest(pk, data: [0x01])),
        CommandCase("send_binary_req.neighbours", "req_neighbours_async", args: [pk.hex], extra: ["random": [Int(neighboursRandom)]],
                    .sendBinaryRequest(pk, data: [0x06, 0, 255] + le16(0) + [0, 4] + le32(neighboursRandom))),
        CommandCase("send_path_discovery", "send_path_discovery", args: [pk.hex], .sendPathDiscoveryRequest(pk)),
        CommandCase("send_login", "send_login", args: [pk.hex, "secret"], .sendLogin(pk, password: "secret")),
        CommandCase("send_anon_req.basic", "req_basic_async", args: [pk.hex], try anon(0x03, pk)),
        CommandCase("set_flood_scope.name", "set_flood_scope", args: ["test"], .setFloodScopeKey(.session(key: FloodScope(region: "test").key))),
        CommandCase("set_flood_scope.clear", "reset_flood_scope", .setFloodScopeKey(.session(key: nil))),
        CommandCase("send_control_data.discover", "send_node_discover_req", args: [4], kwargs: ["prefix_only": true, "tag": 0x0102_0304],
                    .sendControlData([0x81, 0x04] + le32(0x0102_0304))),
        CommandCase("get_stats.radio", "get_stats_radio", .getStats(.radio)),
        CommandCase("set_autoadd_config", "set_autoadd_config", args: [0x0E], .setAutoAddConfig(AutoAddConfig(bitmask: 0x0E))),
        CommandCase("set_path_hash_mode", "set_path_hash_mode", args: [1], .setPathHashMode(1)),
        CommandCase("send_channel_data.flood", "send_channel_data", args: channelData(flood).args, .sendChannelData(flood)),
        CommandCase("send_channel_data.165_bytes", "send_channel_data", args: channelData(big).args, .sendChannelData(big)),  // KNOWN §10 #4
        CommandCase("send_raw_data", "send_raw_data", args: [bytesArg([1, 2, 3, 4])], .sendRawData(path: [], payload: [1, 2, 3, 4])),
        CommandCase("add_update_contact", "add_contact", args: [Vocabulary.contact(added)],
                    .addUpdateContact(AddUpdateContact(contact: added, layout: .full))),                   // KNOWN: py omits lastmod
        CommandCase("send_msg_with_retry", "send_msg_with_retry", args: [pk.hex, "r"], kwargs: ["timestamp": 1_700_000_000],
                    text("r", 1_700_000_000), text("r", 1_700_000_000, attempt: 1), .resetPath(pk), text("r", 1_700_000_000, attempt: 2)),
        CommandCase("sync_next_message", "get_msg", .syncNextMessage),
        CommandCase("get_device_time", "get_time", .getDeviceTime),
        CommandCase("send_self_advert.zero_hop", "send_advert", .sendSelfAdvert(flood: false)),
        CommandCase("export_contact.key", "export_contact", args: [pk.hex], .exportContact(pk)),
        CommandCase("import_contact", "import_contact", args: [bytesArg(card)], .importContact(advert: card)),
        CommandCase("export_private_key", "export_private_key", .exportPrivateKey),
        CommandCase("import_private_key", "import_private_key", args: [bytesArg(privateKey)], .importPrivateKey(privateKey)),
        CommandCase("send_status_req", "send_statusreq", args: [pk.hex], .sendStatusRequest(pk)),
        CommandCase("logout", "send_logout", args: [pk.hex], .logout(pk)),
        CommandCase("get_contact_by_key", "get_contact_by_key", args: [bytesArg(pk.bytes)], .getContactByKey(pk)),
        CommandCase("sign", "sign", args: [bytesArg(signed)], kwargs: ["chunk_size": 3],
                    .signStart, .signData(Array(signed[0..<3])), .signData(Array(signed[3...])), .signFinish),
        CommandCase("set_other_params", "set_other_params", args: otherArgs(otherParams), .setOtherParams(otherParams)),
        CommandCase("set_other_params.multi_acks", "set_multi_acks", args: [1], replies: readModifyWrite,
                    appStart, rewrite { $0.multiAcks = 1 }),
        CommandCase("send_telemetry_req.remote", "send_telemetry_req", args: [pk.hex], .sendTelemetryRequest(pk, reserved: [0, 0, 0])),
        CommandCase("get_custom_vars", "get_custom_vars", .getCustomVars),
        CommandCase("set_custom_var", "set_custom_var", args: ["gps", "1"], .setCustomVar(name: "gps", value: "1")),
        CommandCase("get_tuning_params", "get_tuning", .getTuningParams),
        CommandCase("send_binary_req.acl", "req_acl_sync", args: [pk.hex], .sendBinaryRequest(pk, data: [0x05, 0, 0])),
        CommandCase("send_binary_req.mma", "req_mma_sync", args: [pk.hex, 100, 200],
                    .sendBinaryRequest(pk, data: [0x04] + le32(100) + le32(200) + [0, 0])),
        CommandCase("send_binary_req.telemetry", "req_telemetry_sync", args: [pk.hex], .sendBinaryRequest(pk, data: [0x03])),
        CommandCase("send_anon_req.regions", "req_regions_async", args: [pk.hex], try anon(0x01, pk)),
        CommandCase("send_anon_req.owner", "req_owner_async", args: [pk.hex], try anon(0x02, pk)),
        CommandCase("send_anon_req.known_contact", "req_basic_async", args: [pk2.hex], context: contactStream,
                    try anon(0x03, pk2, via: added.outPath)),
        CommandCase("send_control_data", "send_control_data", args: [0x80, bytesArg([0x04, 0x01, 0x00, 0x00, 0x00])],
                    .sendControlData([0x80, 0x04, 0x01, 0x00, 0x00, 0x00])),
        CommandCase("get_stats.core", "get_stats_core", .getStats(.core)),
        CommandCase("get_stats.packets", "get_stats_packets", .getStats(.packets)),
        CommandCase("get_autoadd_config", "get_autoadd_config", .getAutoAddConfig),
        CommandCase("get_allowed_repeat_freq", "get_allowed_repeat_freq", .getAllowedRepeatFreq),
        CommandCase("send_channel_data.path", "send_channel_data", args: channelData(routed).args, kwargs: channelData(routed).kwargs,
                    .sendChannelData(routed)),
        CommandCase("set_default_flood_scope", "set_default_flood_scope", args: ["eu"], .setDefaultFloodScope(scopeEU)),
        CommandCase("set_default_flood_scope.clear", "reset_default_flood_scope", .setDefaultFloodScope(nil)),    // KNOWN (TypeError)
        CommandCase("set_flood_scope.none", "set_flood_scope", args: [NSNull()], .setFloodScopeKey(.session(key: nil))),  // KNOWN
        CommandCase("set_flood_scope.unscoped", "force_unscoped", .setFloodScopeKey(.unscoped)),
        CommandCase("get_default_flood_scope", "get_default_flood_scope", .getDefaultFloodScope),
        CommandCase("send_raw_packet", "send_raw_packet", args: [hex(card.prefix(10))], kwargs: ["priority": 1],
                    .sendRawPacket(priority: 1, packet: Array(card.prefix(10)))),
        CommandCase("send_cli_cmd.repeater", "send_cmd", args: [pk.hex, "ver", 1_700_000_000], text("ver", 1_700_000_000, type: .cliData)),
        CommandCase("send_cli_cmd.chat", "send_cmd", args: [pk.hex, "ver", 1_700_000_000], kwargs: ["dst_type": 1],
                    text("ver", 1_700_000_000, type: .cliData)),                                          // KNOWN (txt_type 3)
        CommandCase("change_contact_path", "change_contact_path", args: [Vocabulary.contact(added), hex(repathed.outPath.bytes)],
                    replies: [[.response(.deviceInfo(deviceInfo))], [.response(.ok(value: nil))]], deviceQuery, .addUpdateContact(AddUpdateContact(contact: repathed, layout: .withPosition))),

        // ---- beyond the self-test: more methods and realistic values
        CommandCase("send_txt_msg.unicode_retry", "send_msg", args: [fx.alice.hex, "Grüezi 🌻"],
                    kwargs: ["timestamp": 1_767_225_000, "attempt": 2], text("Grüezi 🌻", 1_767_225_000, attempt: 2, to: fx.alice.prefix())),
        CommandCase("send_channel_txt_msg.unicode", "send_chan_msg", args: [7, "¿Alguien en línea? 📡", 1_767_225_010],
                    .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 7, timestamp: 1_767_225_010, text: "¿Alguien en línea? 📡"))),
        set("set_advert_latlon.southern_hemisphere", wellington),
        setRadio("set_radio_params.us915", RadioParams(frequencyKHz: 915_000, bandwidthHz: 125_000, spreadingFactor: 12, codingRate: 8)),
        setChannel("set_channel.private_unicode", ChannelInfo(index: 5, name: "Bergfreunde ⛰", secret: .passphrase("correct horse battery staple"))),
        CommandCase("send_trace.2byte_hashes", "send_trace", kwargs: trace(trace2), .sendTracePath(trace2)),
        CommandCase("send_binary_req.enum_status", "send_binary_req", args: [fx.repeater.hex, ["$enum": "BinaryReqType.STATUS"]],
                    .sendBinaryRequest(fx.repeater, data: [0x01])),
        CommandCase("send_binary_req.neighbours_page", "req_neighbours_async", args: [fx.repeater.hex],
                    kwargs: ["count": 20, "offset": 40, "order_by": 1, "pubkey_prefix_length": 6], extra: ["random": [0x1234_5678]],
                    .sendBinaryRequest(fx.repeater, data: [0x06, 0, 20] + le16(40) + [1, 6] + le32(0x1234_5678))),
        CommandCase("send_channel_data.3byte_path", "send_channel_data", args: channelData(routed3).args, kwargs: channelData(routed3).kwargs,
                    .sendChannelData(routed3)),
        CommandCase("set_autoadd_config.max_hops", "set_autoadd_config", args: [0x1F],
                    .setAutoAddConfig(AutoAddConfig(bitmask: 0x1F, maxHops: 3))),                          // KNOWN: py cannot send max hops
        CommandCase("update_contact", "update_contact", args: [Vocabulary.contact(added)],
                    .addUpdateContact(AddUpdateContact(contact: added, layout: .full))),                   // KNOWN: py omits lastmod
        CommandCase("change_contact_flags", "change_contact_flags", args: [Vocabulary.contact(added), Int(flagged.flags.rawValue)],
                    .addUpdateContact(AddUpdateContact(contact: flagged, layout: .full))),                 // KNOWN: py omits lastmod
        CommandCase("sign.steps.start", "sign_start", .signStart),
        CommandCase("sign.steps.data", "sign_data", args: [bytesArg(signed)], .signData(signed)),
        CommandCase("sign.steps.finish", "sign_finish", .signFinish),
        CommandCase("set_manual_add_contacts", "set_manual_add_contacts", args: [false], replies: readModifyWrite,
                    appStart, rewrite { $0.manualAddContacts = 0 }),
        CommandCase("set_telemetry_mode_env", "set_telemetry_mode_env", args: [2], replies: readModifyWrite,
                    appStart, rewrite { $0.telemetryModes = TelemetryModes(base: infos.telemetryModes.base, location: infos.telemetryModes.location,
                                                                          environment: 2) }),
        CommandCase("set_advert_loc_policy", "set_advert_loc_policy", args: [0], replies: readModifyWrite,
                    appStart, rewrite { $0.advertLocationPolicy = 0 }),
        CommandCase("get_path_hash_mode", "get_path_hash_mode", deviceQuery),
        CommandCase("send_raw_packet.advert", "send_raw_packet", args: [hex(card)], .sendRawPacket(priority: 0, packet: card)),
        CommandCase("send_login.room", "send_login", args: [fx.room.hex, "hunter2"], .sendLogin(fx.room, password: "hunter2")),
    ]

}
