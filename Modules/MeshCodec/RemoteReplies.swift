/// SENT (6): how the radio sent a message or request.
public struct Sent: Hashable, Sendable {
    /// True when it went flood (no known path), false when direct.
    public var flood: Bool
    /// Expected ACK code (messages) or request tag (remote requests).
    public var ackCode: AckCode
    public var suggestedTimeoutMs: UInt32

    public init(flood: Bool, ackCode: AckCode, suggestedTimeoutMs: UInt32) {
        self.flood = flood
        self.ackCode = ackCode
        self.suggestedTimeoutMs = suggestedTimeoutMs
    }
}

/// LOGIN_SUCCESS (0x85). Fields after the prefix were added over releases.
public struct LoginSuccess: Hashable, Sendable {
    /// Legacy is-admin/permissions byte.
    public var permissions: UInt8
    public var serverPrefix: KeyPrefix
    /// 1.7.0+.
    public var serverTimestamp: UInt32?
    /// 1.7.3+: low 2 bits 0 guest, 1 read-only, 2 read-write, 3 admin.
    public var aclPermissions: UInt8?
    /// 1.9.0+: the server's `FIRMWARE_VER_LEVEL`.
    public var firmwareLevel: UInt8?

    public init(permissions: UInt8, serverPrefix: KeyPrefix, serverTimestamp: UInt32? = nil, aclPermissions: UInt8? = nil, firmwareLevel: UInt8? = nil) {
        self.permissions = permissions
        self.serverPrefix = serverPrefix
        self.serverTimestamp = serverTimestamp
        self.aclPermissions = aclPermissions
        self.firmwareLevel = firmwareLevel
    }

    public var isAdmin: Bool { (aclPermissions.map { $0 & 3 == 3 }) ?? (permissions != 0) }

    static func read(_ r: inout ByteReader) throws -> LoginSuccess {
        var s = LoginSuccess(permissions: try r.u8("permissions"), serverPrefix: try r.prefix6("server prefix"))
        if !r.isAtEnd { s.serverTimestamp = try r.u32("server timestamp") }
        if !r.isAtEnd { s.aclPermissions = try r.u8("ACL permissions") }
        if !r.isAtEnd { s.firmwareLevel = try r.u8("firmware level") }
        return s
    }

    func write(_ w: inout ByteWriter) {
        w.u8(permissions)
        w.append(serverPrefix.bytes)
        guard let ts = serverTimestamp else { return }
        w.u32(ts)
        guard let acl = aclPermissions else { return }
        w.u8(acl)
        if let level = firmwareLevel { w.u8(level) }
    }
}

/// The repeater / room server status blob carried by STATUS_RESPONSE (0x87): 52 bytes,
/// or 56 with the receive-error counter.
public struct RepeaterStatus: Hashable, Sendable {
    static let size = 52

    public var batteryMillivolts: UInt16
    public var txQueueLength: UInt16
    public var noiseFloor: Int16
    public var lastRSSI: Int16
    public var packetsReceived: UInt32
    public var packetsSent: UInt32
    public var airtimeSeconds: UInt32
    public var uptimeSeconds: UInt32
    public var sentFlood: UInt32
    public var sentDirect: UInt32
    public var receivedFlood: UInt32
    public var receivedDirect: UInt32
    public var fullEvents: UInt16
    public var lastSNRx4: Int16
    public var directDuplicates: UInt16
    public var floodDuplicates: UInt16
    public var rxAirtimeSeconds: UInt32
    public var receiveErrors: UInt32?

    public init(batteryMillivolts: UInt16 = 0, txQueueLength: UInt16 = 0, noiseFloor: Int16 = 0, lastRSSI: Int16 = 0,
                packetsReceived: UInt32 = 0, packetsSent: UInt32 = 0, airtimeSeconds: UInt32 = 0, uptimeSeconds: UInt32 = 0,
                sentFlood: UInt32 = 0, sentDirect: UInt32 = 0, receivedFlood: UInt32 = 0, receivedDirect: UInt32 = 0,
                fullEvents: UInt16 = 0, lastSNRx4: Int16 = 0, directDuplicates: UInt16 = 0, floodDuplicates: UInt16 = 0,
                rxAirtimeSeconds: UInt32 = 0, receiveErrors: UInt32? = nil) {
        self.batteryMillivolts = batteryMillivolts
        self.txQueueLength = txQueueLength
        self.noiseFloor = noiseFloor
        self.lastRSSI = lastRSSI
        self.packetsReceived = packetsReceived
        self.packetsSent = packetsSent
        self.airtimeSeconds = airtimeSeconds
        self.uptimeSeconds = uptimeSeconds
        self.sentFlood = sentFlood
        self.sentDirect = sentDirect
        self.receivedFlood = receivedFlood
        self.receivedDirect = receivedDirect
        self.fullEvents = fullEvents
        self.lastSNRx4 = lastSNRx4
        self.directDuplicates = directDuplicates
        self.floodDuplicates = floodDuplicates
        self.rxAirtimeSeconds = rxAirtimeSeconds
        self.receiveErrors = receiveErrors
    }

    public var lastSNR: Double { Double(lastSNRx4) / 4 }

    /// Parses a status blob; nil when it is shorter than 52 bytes (some nodes send other data).
    public init?(blob: [UInt8]) {
        var r = ByteReader(blob, frame: "repeater status")
        do {
            self.init(batteryMillivolts: try r.u16("battery"), txQueueLength: try r.u16("tx queue"), noiseFloor: try r.i16("noise floor"),
                      lastRSSI: try r.i16("last RSSI"), packetsReceived: try r.u32("received"), packetsSent: try r.u32("sent"),
                      airtimeSeconds: try r.u32("airtime"), uptimeSeconds: try r.u32("uptime"), sentFlood: try r.u32("sent flood"),
                      sentDirect: try r.u32("sent direct"), receivedFlood: try r.u32("received flood"),
                      receivedDirect: try r.u32("received direct"), fullEvents: try r.u16("full events"),
                      lastSNRx4: try r.i16("last SNR"), directDuplicates: try r.u16("direct dups"),
                      floodDuplicates: try r.u16("flood dups"), rxAirtimeSeconds: try r.u32("rx airtime"))
            if r.remaining >= 4 { receiveErrors = try r.u32("receive errors") }
        } catch {
            return nil
        }
    }

    public var blob: [UInt8] {
        var w = ByteWriter(code: 0, capacity: 57)
        w.u16(batteryMillivolts); w.u16(txQueueLength); w.i16(noiseFloor); w.i16(lastRSSI)
        for v in [packetsReceived, packetsSent, airtimeSeconds, uptimeSeconds, sentFlood, sentDirect, receivedFlood, receivedDirect] { w.u32(v) }
        w.u16(fullEvents); w.i16(lastSNRx4); w.u16(directDuplicates); w.u16(floodDuplicates); w.u32(rxAirtimeSeconds)
        if let e = receiveErrors { w.u32(e) }
        return Array(w.bytes.dropFirst())
    }
}

/// TRACE_DATA (0x89): the hop hashes a trace went through and the SNR heard at each hop.
public struct TraceData: Hashable, Sendable {
    public var reserved: UInt8
    /// Bits 0-1: hash bytes per hop = 1 << sz.
    public var flags: UInt8
    public var tag: UInt32
    public var authCode: UInt32
    /// Concatenated hop hashes.
    public var pathHashes: [UInt8]
    /// SNR × 4 at each hop.
    public var hopSNRx4: [Int8]
    /// SNR × 4 of the trace arriving back at us.
    public var finalSNRx4: Int8

    public init(reserved: UInt8 = 0, flags: UInt8, tag: UInt32, authCode: UInt32, pathHashes: [UInt8], hopSNRx4: [Int8], finalSNRx4: Int8) {
        self.reserved = reserved
        self.flags = flags
        self.tag = tag
        self.authCode = authCode
        self.pathHashes = pathHashes
        self.hopSNRx4 = hopSNRx4
        self.finalSNRx4 = finalSNRx4
    }

    public var hashSize: Int { 1 << Int(flags & 3) }
    public var hops: [[UInt8]] {
        stride(from: 0, to: pathHashes.count, by: hashSize).map { Array(pathHashes[$0..<min($0 + hashSize, pathHashes.count)]) }
    }

    static func read(_ r: inout ByteReader) throws -> TraceData {
        let reserved = try r.u8("reserved")
        let pathLen = Int(try r.u8("path_len"))
        let flags = try r.u8("flags")
        let tag = try r.u32("tag")
        let auth = try r.u32("auth_code")
        let hashes = try r.bytes(pathLen, "path hashes")
        let snrs = try r.bytes(pathLen >> Int(flags & 3), "hop SNRs").map { Int8(bitPattern: $0) }
        return TraceData(reserved: reserved, flags: flags, tag: tag, authCode: auth, pathHashes: hashes, hopSNRx4: snrs,
                         finalSNRx4: try r.i8("final SNR"))
    }

    func write(_ w: inout ByteWriter) {
        w.u8(reserved)
        w.u8(UInt8(clamping: pathHashes.count))
        w.u8(flags)
        w.u32(tag)
        w.u32(authCode)
        w.append(pathHashes)
        w.append(hopSNRx4.map { UInt8(bitPattern: $0) })
        w.i8(finalSNRx4)
    }
}

/// PATH_DISCOVERY_RESPONSE (0x8D).
public struct PathDiscoveryResponse: Hashable, Sendable {
    public var reserved: UInt8
    public var prefix: KeyPrefix
    public var outPath: Path
    public var inPath: Path

    public init(reserved: UInt8 = 0, prefix: KeyPrefix, outPath: Path, inPath: Path) {
        self.reserved = reserved
        self.prefix = prefix
        self.outPath = outPath
        self.inPath = inPath
    }
}

/// RAW_DATA (0x84), LOG_RX_DATA (0x88) and CONTROL_DATA (0x8E) share a signal header.
public struct ReceivedPacket: Hashable, Sendable {
    public var snrX4: Int8
    public var rssi: Int8
    /// RAW_DATA: reserved (0xFF); CONTROL_DATA: path_len; absent in LOG_RX_DATA.
    public var extra: UInt8?
    public var payload: [UInt8]

    public init(snrX4: Int8, rssi: Int8, extra: UInt8? = nil, payload: [UInt8]) {
        self.snrX4 = snrX4
        self.rssi = rssi
        self.extra = extra
        self.payload = payload
    }

    public var snr: Double { Double(snrX4) / 4 }
}
