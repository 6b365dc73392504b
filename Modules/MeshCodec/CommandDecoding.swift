extension Command {
    /// Decodes a command frame as the radio receives it. Unknown codes become `.unknown`;
    /// a known code with a bad length or sub-byte throws (the firmware answers those with
    /// ERR_CODE_UNSUPPORTED_CMD).
    public init(decoding frame: [UInt8]) throws {
        self = try decodeFrame(frame, as: CommandCode.self, unknown: { .unknown(code: $0, payload: $1) }, body: Self.decodeBody)
    }

    private static func decodeBody(_ code: CommandCode, _ r: inout ByteReader) throws -> Command {
        switch code {
        case .appStart:
            let reserved = try r.bytes(7, "reserved")
            return .appStart(AppStart(appName: r.restString(), reserved: reserved))
        case .sendTextMessage:
            let type = TextType(rawValue: try r.u8("txt_type"))
            let attempt = try r.u8("attempt")
            let ts = try r.u32("timestamp")
            let to = try r.prefix6("recipient prefix")
            return .sendTextMessage(SendTextMessage(textType: type, attempt: attempt, timestamp: ts, recipient: to, text: r.restString()))
        case .sendChannelTextMessage:
            let type = TextType(rawValue: try r.u8("txt_type"))
            let idx = try r.u8("channel index")
            let ts = try r.u32("timestamp")
            return .sendChannelTextMessage(SendChannelTextMessage(textType: type, channelIndex: idx, timestamp: ts, text: r.restString()))
        case .getContacts:
            return .getContacts(since: r.isAtEnd ? nil : try r.u32("since"))
        case .getDeviceTime: return .getDeviceTime
        case .setDeviceTime: return .setDeviceTime(try r.u32("time"))
        case .sendSelfAdvert:
            return .sendSelfAdvert(flood: r.isAtEnd ? false : try r.u8("flood") == 1)
        // The firmware keeps at most 31 bytes of the name.
        case .setAdvertName: return .setAdvertName(FixedString.decode(r.rest(), width: 32))
        case .addUpdateContact:
            let total = r.bytes.count
            var contact = try Contact.readBase(&r)
            switch total {
            case 136: return .addUpdateContact(AddUpdateContact(contact: contact, layout: .base))
            case 144, 148:
                contact.position = Coordinates(latitudeE6: try r.i32("adv_lat"), longitudeE6: try r.i32("adv_lon"))
                if total == 144 { return .addUpdateContact(AddUpdateContact(contact: contact, layout: .withPosition)) }
                contact.lastModified = try r.u32("lastmod")
                return .addUpdateContact(AddUpdateContact(contact: contact, layout: .full))
            default:
                throw r.invalid("length", at: 0, "\(total) bytes; the record is 136, 144 or 148 bytes")
            }
        case .syncNextMessage: return .syncNextMessage
        case .setRadioParams:
            let p = try RadioParams.read(&r)
            return .setRadioParams(p, clientRepeat: r.isAtEnd ? nil : try r.u8("client repeat") != 0)
        case .setRadioTxPower:
            // The firmware reads byte 1 only; meshcore_py sends the power as a 4-byte integer.
            let power = try r.i8("tx power")
            _ = r.rest()
            return .setRadioTxPower(power)
        case .resetPath: return .resetPath(try r.publicKey())
        case .setAdvertLatLon:
            let c = Coordinates(latitudeE6: try r.i32("latitude"), longitudeE6: try r.i32("longitude"))
            return .setAdvertLatLon(c, altitude: r.isAtEnd ? nil : try r.i32("altitude"))
        case .removeContact: return .removeContact(try r.publicKey())
        case .shareContact: return .shareContact(try r.publicKey())
        case .exportContact: return .exportContact(r.isAtEnd ? nil : try r.publicKey())
        case .importContact:
            let advert = r.rest()
            guard advert.count >= 98 else { throw r.invalid("advert", at: 1, "\(advert.count) bytes; an advert packet has at least 98") }
            return .importContact(advert: advert)
        case .reboot:
            try literal("reboot", &r)
            return .reboot
        case .getBatteryAndStorage: return .getBatteryAndStorage
        case .setTuningParams: return .setTuningParams(rxDelayBase: try r.u32("rx_delay_base"), airtimeFactor: try r.u32("airtime_factor"))
        case .deviceQuery: return .deviceQuery(appTargetVersion: try r.u8("app_target_ver"))
        case .exportPrivateKey: return .exportPrivateKey
        case .importPrivateKey: return .importPrivateKey(try r.bytes(64, "private key"))
        case .sendRawData:
            let at = r.offset
            let count = try r.i8("path length")
            guard count >= 0 else { throw r.invalid("path length", at: at, "flood (negative) is not supported for raw data") }
            let path = try r.bytes(Int(count), "path")
            let payload = r.rest()
            guard payload.count >= 4 else { throw r.invalid("payload", at: at + 1 + Int(count), "needs at least 4 bytes") }
            return .sendRawData(path: path, payload: payload)
        case .sendLogin: return .sendLogin(try r.publicKey(), password: r.restString())
        case .sendStatusRequest: return .sendStatusRequest(try r.publicKey())
        case .hasConnection: return .hasConnection(try r.publicKey())
        case .logout: return .logout(try r.publicKey())
        case .getContactByKey: return .getContactByKey(try r.publicKey())
        case .getChannel: return .getChannel(try r.u8("channel index"))
        case .setChannel:
            if r.bytes.count == 66 { throw r.invalid("secret", at: 34, "32-byte channel secrets are not supported") }
            return .setChannel(try ChannelInfo.read(&r))
        case .signStart: return .signStart
        case .signData: return .signData(r.rest())
        case .signFinish: return .signFinish
        case .sendTracePath:
            let t = TraceRequest(tag: try r.u32("tag"), authCode: try r.u32("auth_code"), flags: try r.u8("flags"), path: r.rest())
            let hash = 1 << Int(t.flags & 3)
            guard !t.path.isEmpty, t.path.count % hash == 0, t.path.count / hash <= 64 else {
                throw r.invalid("path", at: 10, "\(t.path.count) bytes is not 1-64 hops of \(hash)-byte hashes")
            }
            return .sendTracePath(t)
        case .setDevicePin: return .setDevicePin(try r.u32("PIN"))
        case .setOtherParams:
            var p = OtherParams(manualAddContacts: try r.u8("manual_add_contacts"))
            if !r.isAtEnd { p.telemetryModes = TelemetryModes(rawValue: try r.u8("telemetry modes")) }
            if !r.isAtEnd { p.advertLocationPolicy = try r.u8("advert_loc_policy") }
            if !r.isAtEnd { p.multiAcks = try r.u8("multi_acks") }
            return .setOtherParams(p)
        case .sendTelemetryRequest:
            let reserved = try r.bytes(3, "reserved")
            return .sendTelemetryRequest(r.isAtEnd ? nil : try r.publicKey(), reserved: reserved)
        case .getCustomVars: return .getCustomVars
        case .setCustomVar:
            let text = r.restString()
            guard text.utf8.count >= 3, let (name, value) = text.splitOnce(at: ":") else {
                throw r.invalid("variable", at: 1, "expected name:value")
            }
            return .setCustomVar(name: name, value: value)
        case .getAdvertPath:
            let reserved = try r.u8("reserved")
            return .getAdvertPath(try r.publicKey(), reserved: reserved)
        case .getTuningParams: return .getTuningParams
        case .sendBinaryRequest:
            let k = try r.publicKey()
            let data = r.rest()
            guard !data.isEmpty else { throw r.invalid("request", at: 33, "needs at least the request type byte") }
            return .sendBinaryRequest(k, data: data)
        case .factoryReset:
            try literal("reset", &r)
            return .factoryReset
        case .sendPathDiscoveryRequest:
            try zero("reserved", &r)
            return .sendPathDiscoveryRequest(try r.publicKey())
        case .setFloodScopeKey:
            let at = r.offset
            switch try r.u8("variant") {
            case 0: return .setFloodScopeKey(.session(key: r.isAtEnd ? nil : try r.bytes(16, "scope key")))
            case 1: return .setFloodScopeKey(.unscoped)
            case let v: throw r.invalid("variant", at: at, "unknown variant \(v)")
            }
        case .sendControlData:
            let d = r.rest()
            guard let first = d.first, first & 0x80 != 0 else { throw r.invalid("control payload", at: 1, "first byte must have bit 7 set") }
            return .sendControlData(d)
        case .getStats:
            let at = r.offset
            let t = try r.u8("stats type")
            guard let type = StatsType(rawValue: t) else { throw r.invalid("stats type", at: at, "unknown type \(t)") }
            return .getStats(type)
        case .sendAnonRequest:
            let k = try r.publicKey()
            let data = r.rest()
            guard !data.isEmpty else { throw r.invalid("request", at: 33, "needs request data") }
            return .sendAnonRequest(k, data: data)
        case .setAutoAddConfig:
            return .setAutoAddConfig(AutoAddConfig(bitmask: try r.u8("bitmask"), maxHops: r.isAtEnd ? nil : try r.u8("max hops")))
        case .getAutoAddConfig: return .getAutoAddConfig
        case .getAllowedRepeatFreq: return .getAllowedRepeatFreq
        case .setPathHashMode:
            try zero("reserved", &r)
            return .setPathHashMode(try r.u8("mode"))
        case .sendChannelData:
            let idx = try r.u8("channel index")
            let path = try Path.read(&r, "path")
            return .sendChannelData(SendChannelData(channelIndex: idx, path: path, dataType: try r.u16("data_type"), payload: r.rest()))
        case .setDefaultFloodScope:
            if r.remaining < 47 {
                _ = r.rest()
                return .setDefaultFloodScope(nil)
            }
            return .setDefaultFloodScope(FloodScope(name: try r.fixedString(31, "scope name"), key: try r.bytes(16, "scope key")))
        case .getDefaultFloodScope: return .getDefaultFloodScope
        case .sendRawPacket:
            let priority = try r.u8("priority")
            let packet = r.rest()
            guard packet.count >= 2 else { throw r.invalid("packet", at: 2, "needs at least 2 bytes") }
            return .sendRawPacket(priority: priority, packet: packet)
        }
    }

    private static func literal(_ word: String, _ r: inout ByteReader) throws {
        let at = r.offset
        let got = r.rest()
        guard got == Array(word.utf8) else { throw r.invalid("confirmation", at: at, "must be \"\(word)\"") }
    }

    private static func zero(_ field: String, _ r: inout ByteReader) throws {
        let at = r.offset
        let v = try r.u8(field)
        guard v == 0 else { throw r.invalid(field, at: at, "must be 0, got \(v)") }
    }
}
