extension Command {
    /// The frame bytes (code byte first, no transport header).
    public func encode() throws -> [UInt8] {
        var w = ByteWriter(code: code, capacity: 40)
        switch self {
        case let .appStart(s):
            guard s.reserved.count == 7 else { throw unencodable("reserved", "needs exactly 7 bytes, got \(s.reserved.count)") }
            w.append(s.reserved)
            w.string(s.appName)
        case let .sendTextMessage(m):
            let limit = m.attempt > 3 ? SendTextMessage.maxTextBytes - 2 : SendTextMessage.maxTextBytes
            guard m.text.utf8.count <= limit else { throw unencodable("text", "\(m.text.utf8.count) bytes, the radio takes at most \(limit)") }
            guard m.recipient.bytes.count == 6 else { throw unencodable("recipient", "needs a 6-byte key prefix") }
            w.u8(m.textType.rawValue); w.u8(m.attempt); w.u32(m.timestamp); w.append(m.recipient.bytes); w.string(m.text)
        case let .sendChannelTextMessage(m):
            guard m.text.utf8.count <= SendChannelTextMessage.maxTotalBytes else {
                throw unencodable("text", "\(m.text.utf8.count) bytes, a channel message takes at most \(SendChannelTextMessage.maxTotalBytes) including the sender name")
            }
            w.u8(m.textType.rawValue); w.u8(m.channelIndex); w.u32(m.timestamp); w.string(m.text)
        case let .getContacts(since):
            if let since { w.u32(since) }
        case .getDeviceTime, .syncNextMessage, .getBatteryAndStorage, .exportPrivateKey, .signStart, .signFinish,
             .getCustomVars, .getTuningParams, .getAutoAddConfig, .getAllowedRepeatFreq, .getDefaultFloodScope:
            break
        case let .setDeviceTime(t):
            w.u32(t)
        case let .sendSelfAdvert(flood):
            if flood { w.u8(1) }
        case let .setAdvertName(name):
            w.append(FixedString.truncatedUTF8(name, maxBytes: 31))
        case let .addUpdateContact(u):
            u.contact.writeBase(&w)
            if u.layout != .base { w.i32(u.contact.position.latitudeE6); w.i32(u.contact.position.longitudeE6) }
            if u.layout == .full { w.u32(u.contact.lastModified) }
        case let .setRadioParams(p, repeatOn):
            p.write(&w)
            if let repeatOn { w.u8(repeatOn ? 1 : 0) }
        case let .setRadioTxPower(dbm):
            w.i8(dbm)
        case let .resetPath(k), let .removeContact(k), let .shareContact(k), let .sendStatusRequest(k),
             let .hasConnection(k), let .logout(k), let .getContactByKey(k):
            w.append(k.bytes)
        case let .setAdvertLatLon(c, alt):
            w.i32(c.latitudeE6); w.i32(c.longitudeE6)
            if let alt { w.i32(alt) }
        case let .exportContact(k):
            if let k { w.append(k.bytes) }
        case let .importContact(advert):
            guard advert.count >= 98 else { throw unencodable("advert", "\(advert.count) bytes; an advert packet has at least 98") }
            w.append(advert)
        case .reboot:
            w.string("reboot")
        case .factoryReset:
            w.string("reset")
        case let .setTuningParams(rx, af):
            w.u32(rx); w.u32(af)
        case let .deviceQuery(v):
            w.u8(v)
        case let .importPrivateKey(k):
            guard k.count == 64 else { throw unencodable("private key", "needs 64 bytes, got \(k.count)") }
            w.append(k)
        case let .sendRawData(path, payload):
            guard path.count <= Path.maxBytes else { throw unencodable("path", "\(path.count) bytes, at most \(Path.maxBytes)") }
            guard payload.count >= 4 else { throw unencodable("payload", "needs at least 4 bytes") }
            w.u8(UInt8(path.count)); w.append(path); w.append(payload)
        case let .sendLogin(k, password):
            w.append(k.bytes); w.string(password)
        case let .getChannel(i):
            w.u8(i)
        case let .setChannel(info):
            info.write(&w)
        case let .signData(d):
            w.append(d)
        case let .sendTracePath(t):
            let hash = 1 << Int(t.flags & 3)
            guard !t.path.isEmpty, t.path.count % hash == 0, t.path.count / hash <= 64 else {
                throw unencodable("path", "\(t.path.count) bytes is not 1-64 hops of \(hash)-byte hashes")
            }
            w.u32(t.tag); w.u32(t.authCode); w.u8(t.flags); w.append(t.path)
        case let .setDevicePin(pin):
            w.u32(pin)
        case let .setOtherParams(p):
            w.u8(p.manualAddContacts)
            if let t = p.telemetryModes {
                w.u8(t.rawValue)
                if let l = p.advertLocationPolicy {
                    w.u8(l)
                    if let m = p.multiAcks { w.u8(m) }
                }
            }
        case let .sendTelemetryRequest(k, reserved):
            guard reserved.count == 3 else { throw unencodable("reserved", "needs exactly 3 bytes") }
            w.append(reserved)
            if let k { w.append(k.bytes) }
        case let .setCustomVar(name, value):
            guard !name.contains(":") else { throw unencodable("name", "a custom variable name cannot contain ':'") }
            w.string("\(name):\(value)")
        case let .getAdvertPath(k, reserved):
            w.u8(reserved); w.append(k.bytes)
        case let .sendBinaryRequest(k, data), let .sendAnonRequest(k, data):
            guard !data.isEmpty else { throw unencodable("data", "a request needs at least its type byte") }
            w.append(k.bytes); w.append(data)
        case let .sendPathDiscoveryRequest(k):
            w.u8(0); w.append(k.bytes)
        case let .setFloodScopeKey(o):
            switch o {
            case let .session(key):
                w.u8(0)
                if let key {
                    guard key.count == 16 else { throw unencodable("scope key", "needs 16 bytes, got \(key.count)") }
                    w.append(key)
                }
            case .unscoped:
                w.u8(1)
            }
        case let .sendControlData(d):
            guard let first = d.first, first & 0x80 != 0 else { throw unencodable("control payload", "first byte must have bit 7 set") }
            w.append(d)
        case let .getStats(t):
            w.u8(t.rawValue)
        case let .setAutoAddConfig(c):
            w.u8(c.bitmask)
            if let h = c.maxHops { w.u8(h) }
        case let .setPathHashMode(m):
            w.u8(0); w.u8(m)
        case let .sendChannelData(d):
            guard d.path.length.isValid, d.path.bytes.count == d.path.length.byteCount else { throw unencodable("path", "length byte and path bytes disagree") }
            w.u8(d.channelIndex)
            d.path.write(&w)
            w.u16(d.dataType)
            w.append(d.payload)
        case let .setDefaultFloodScope(scope):
            if let scope {
                guard scope.key.count == 16 else { throw unencodable("scope key", "needs 16 bytes, got \(scope.key.count)") }
                guard (1...30).contains(scope.name.utf8.count) else { throw unencodable("scope name", "needs 1-30 bytes") }
                w.fixedString(scope.name, width: 31); w.append(scope.key)
            }
        case let .sendRawPacket(priority, packet):
            guard packet.count >= 2 else { throw unencodable("packet", "needs at least 2 bytes") }
            w.u8(priority); w.append(packet)
        case let .unknown(_, payload):
            w.append(payload)
        }
        return w.bytes
    }

    private func unencodable(_ field: String, _ reason: String) -> CodecError {
        .unencodable(frame: name, field: field, reason: reason)
    }
}
