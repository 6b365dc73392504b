/// Any frame the radio sends: a response to a command or an unsolicited push.
public enum RadioFrame: Hashable, Sendable {
    case response(Response)
    case push(Push)

    public var code: UInt8 {
        switch self {
        case let .response(r): r.code
        case let .push(p): p.code
        }
    }

    public var name: String {
        switch self {
        case let .response(r): r.name
        case let .push(p): p.name
        }
    }

    /// Decodes a frame as the app receives it (code byte first, no transport header).
    /// Unknown codes become `.unknown`; a known code whose length or fields are wrong throws.
    public init(decoding frame: [UInt8]) throws {
        guard let code = frame.first else { throw CodecError.empty }
        if code & 0x80 != 0 {
            self = .push(try Push(decodingBody: frame))
        } else {
            self = .response(try Response(decodingBody: frame))
        }
    }

    /// The frame bytes (code byte first, no transport header).
    public func encode() throws -> [UInt8] {
        switch self {
        case let .response(r): try r.encode()
        case let .push(p): try p.encode()
        }
    }
}

extension Response {
    init(decodingBody frame: [UInt8]) throws {
        self = try decodeFrame(frame, as: ResponseCode.self, unknown: { .unknown(code: $0, payload: $1) }, body: Self.decodeBody)
    }

    private static func decodeBody(_ code: ResponseCode, _ r: inout ByteReader) throws -> Response {
        switch code {
        case .ok: return .ok(value: r.isAtEnd ? nil : try r.u32("value"))
        case .err: return .error(r.isAtEnd ? .unspecified : RadioError(code: try r.u8("error code")))
        case .contactsStart: return .contactsStart(total: try r.u32("total"))
        case .contact: return .contact(try Contact.read(&r))
        case .endOfContacts: return .endOfContacts(lastModified: try r.u32("lastmod"))
        case .selfInfo: return .selfInfo(try SelfInfo.read(&r))
        case .sent:
            return .sent(Sent(flood: try r.u8("route flag") == 1, ackCode: try AckCode.read(&r, "expected ACK"),
                              suggestedTimeoutMs: try r.u32("suggested timeout")))
        case .contactMessageV1: return .contactMessage(try ContactMessage.read(&r, format: .legacy))
        case .contactMessageV3: return .contactMessage(try ContactMessage.read(&r, format: .v3))
        case .channelMessageV1: return .channelMessage(try ChannelMessage.read(&r, format: .legacy))
        case .channelMessageV3: return .channelMessage(try ChannelMessage.read(&r, format: .v3))
        case .currentTime: return .currentTime(try r.u32("time"))
        case .noMoreMessages: return .noMoreMessages
        case .exportContact: return .exportContact(advert: r.rest())
        case .batteryAndStorage:
            var b = BatteryAndStorage(millivolts: try r.u16("battery"))
            if !r.isAtEnd {
                b.storageUsedKiB = try r.u32("storage used")
                b.storageTotalKiB = try r.u32("storage total")
            }
            return .batteryAndStorage(b)
        case .deviceInfo: return .deviceInfo(try DeviceInfo.read(&r))
        case .privateKey: return .privateKey(try r.bytes(64, "private key"))
        case .disabled: return .disabled
        case .channelInfo: return .channelInfo(try ChannelInfo.read(&r))
        case .signStart:
            _ = try r.u8("reserved")
            return .signStart(maxLength: try r.u32("max length"))
        case .signature: return .signature(try r.bytes(64, "signature"))
        case .customVars: return .customVars(CustomVar.parseList(r.restString()))
        case .advertPath: return .advertPath(AdvertPath(heardAt: try r.u32("heard at"), path: try Path.read(&r, "path")))
        case .tuningParams: return .tuningParams(rxDelayBase: try r.u32("rx_delay_base"), airtimeFactor: try r.u32("airtime_factor"))
        case .stats: return .stats(try Stats.read(&r))
        case .autoAddConfig: return .autoAddConfig(AutoAddConfig(bitmask: try r.u8("bitmask"), maxHops: r.isAtEnd ? nil : try r.u8("max hops")))
        case .allowedRepeatFreq:
            var ranges: [FrequencyRange] = []
            while !r.isAtEnd { ranges.append(FrequencyRange(lowerKHz: try r.u32("lower"), upperKHz: try r.u32("upper"))) }
            return .allowedRepeatFreq(ranges)
        case .channelData: return .channelData(try ChannelDataMessage.read(&r))
        case .defaultFloodScope:
            if r.isAtEnd { return .defaultFloodScope(nil) }
            return .defaultFloodScope(FloodScope(name: try r.fixedString(31, "scope name"), key: try r.bytes(16, "scope key")))
        }
    }

    public func encode() throws -> [UInt8] {
        var w = ByteWriter(code: code, capacity: 64)
        switch self {
        case let .ok(value): if let value { w.u32(value) }
        case let .error(e): if let c = e.code { w.u8(c) }
        case let .contactsStart(total): w.u32(total)
        case let .contact(c): c.write(&w)
        case let .endOfContacts(lastmod): w.u32(lastmod)
        case let .selfInfo(s): s.write(&w)
        case let .sent(s): w.u8(s.flood ? 1 : 0); w.u32(s.ackCode.value); w.u32(s.suggestedTimeoutMs)
        case let .contactMessage(m): m.write(&w)
        case let .channelMessage(m): m.write(&w)
        case let .currentTime(t): w.u32(t)
        case .noMoreMessages, .disabled: break
        case let .exportContact(advert): w.append(advert)
        case let .batteryAndStorage(b):
            w.u16(b.millivolts)
            if let used = b.storageUsedKiB { w.u32(used); w.u32(b.storageTotalKiB ?? 0) }
        case let .deviceInfo(d): d.write(&w)
        case let .privateKey(k):
            guard k.count == 64 else { throw CodecError.unencodable(frame: name, field: "private key", reason: "needs 64 bytes") }
            w.append(k)
        case let .channelInfo(c): c.write(&w)
        case let .signStart(max): w.u8(0); w.u32(max)
        case let .signature(s):
            guard s.count == 64 else { throw CodecError.unencodable(frame: name, field: "signature", reason: "needs 64 bytes") }
            w.append(s)
        case let .customVars(vars): w.string(CustomVar.formatList(vars))
        case let .advertPath(p): w.u32(p.heardAt); p.path.write(&w)
        case let .tuningParams(rx, af): w.u32(rx); w.u32(af)
        case let .stats(s): s.write(&w)
        case let .autoAddConfig(c): w.u8(c.bitmask); if let h = c.maxHops { w.u8(h) }
        case let .allowedRepeatFreq(ranges): for range in ranges { w.u32(range.lowerKHz); w.u32(range.upperKHz) }
        case let .channelData(m): m.write(&w)
        case let .defaultFloodScope(scope):
            if let scope {
                guard scope.key.count == 16 else { throw CodecError.unencodable(frame: name, field: "scope key", reason: "needs 16 bytes") }
                w.fixedString(scope.name, width: 31); w.append(scope.key)
            }
        case let .unknown(_, payload): w.append(payload)
        }
        return w.bytes
    }
}

extension Push {
    init(decodingBody frame: [UInt8]) throws {
        self = try decodeFrame(frame, as: PushCode.self, unknown: { .unknown(code: $0, payload: $1) }, body: Self.decodeBody)
    }

    private static func decodeBody(_ code: PushCode, _ r: inout ByteReader) throws -> Push {
        switch code {
        case .advert: return .advert(try r.publicKey())
        case .pathUpdated: return .pathUpdated(try r.publicKey())
        case .sendConfirmed: return .sendConfirmed(ackCode: try AckCode.read(&r, "ACK code"), roundTripMs: try r.u32("round trip"))
        case .messageWaiting: return .messageWaiting
        case .rawData:
            return .rawData(ReceivedPacket(snrX4: try r.i8("SNR"), rssi: try r.i8("RSSI"), extra: try r.u8("reserved"), payload: r.rest()))
        case .loginSuccess: return .loginSuccess(try LoginSuccess.read(&r))
        case .loginFail:
            _ = try r.u8("reserved")
            return .loginFail(try r.prefix6("server prefix"))
        case .statusResponse:
            _ = try r.u8("reserved")
            return .statusResponse(try r.prefix6("server prefix"), blob: r.rest())
        case .logRxData: return .logRxData(ReceivedPacket(snrX4: try r.i8("SNR"), rssi: try r.i8("RSSI"), payload: r.rest()))
        case .traceData: return .traceData(try TraceData.read(&r))
        case .newAdvert: return .newAdvert(try Contact.read(&r))
        case .telemetryResponse:
            _ = try r.u8("reserved")
            return .telemetryResponse(try r.prefix6("node prefix"), lpp: r.rest())
        case .binaryResponse:
            _ = try r.u8("reserved")
            return .binaryResponse(tag: try AckCode.read(&r, "tag"), data: r.rest())
        case .pathDiscoveryResponse:
            let reserved = try r.u8("reserved")
            let prefix = try r.prefix6("node prefix")
            return .pathDiscoveryResponse(PathDiscoveryResponse(reserved: reserved, prefix: prefix, outPath: try Path.read(&r, "out path"),
                                                                inPath: try Path.read(&r, "in path")))
        case .controlData:
            return .controlData(ReceivedPacket(snrX4: try r.i8("SNR"), rssi: try r.i8("RSSI"), extra: try r.u8("path_len"), payload: r.rest()))
        case .contactDeleted: return .contactDeleted(try r.publicKey())
        case .contactsFull: return .contactsFull
        }
    }

    public func encode() throws -> [UInt8] {
        var w = ByteWriter(code: code, capacity: 64)
        switch self {
        case let .advert(k), let .pathUpdated(k), let .contactDeleted(k): w.append(k.bytes)
        case let .sendConfirmed(ack, rtt): w.u32(ack.value); w.u32(rtt)
        case .messageWaiting, .contactsFull: break
        case let .rawData(p): w.i8(p.snrX4); w.i8(p.rssi); w.u8(p.extra ?? 0xFF); w.append(p.payload)
        case let .loginSuccess(s): s.write(&w)
        case let .loginFail(prefix): w.u8(0); try Self.writePrefix6(prefix, &w, name)
        case let .statusResponse(prefix, blob): w.u8(0); try Self.writePrefix6(prefix, &w, name); w.append(blob)
        case let .logRxData(p): w.i8(p.snrX4); w.i8(p.rssi); w.append(p.payload)
        case let .traceData(t): t.write(&w)
        case let .newAdvert(c): c.write(&w)
        case let .telemetryResponse(prefix, lpp): w.u8(0); try Self.writePrefix6(prefix, &w, name); w.append(lpp)
        case let .binaryResponse(tag, data): w.u8(0); w.u32(tag.value); w.append(data)
        case let .pathDiscoveryResponse(p):
            w.u8(p.reserved); try Self.writePrefix6(p.prefix, &w, name); p.outPath.write(&w); p.inPath.write(&w)
        case let .controlData(p): w.i8(p.snrX4); w.i8(p.rssi); w.u8(p.extra ?? 0); w.append(p.payload)
        case let .unknown(_, payload): w.append(payload)
        }
        return w.bytes
    }

    private static func writePrefix6(_ p: KeyPrefix, _ w: inout ByteWriter, _ frame: String) throws {
        guard p.bytes.count == 6 else { throw CodecError.unencodable(frame: frame, field: "key prefix", reason: "needs 6 bytes, got \(p.bytes.count)") }
        w.append(p.bytes)
    }
}
