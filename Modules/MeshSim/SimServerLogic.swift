import MeshCodec

/// How the mesh's repeaters, room servers, sensors and companions answer the radio: the
/// reply bytes their firmware builds (a 4-byte timestamp or echoed tag first), or nil when
/// they stay silent (wrong password, no login, a replayed request, a refused request type).
enum SimServerLogic {
    static let loginOK: UInt8 = 0   // RESP_SERVER_LOGIN_OK
    /// Any other first byte is a refusal to the radio (LOGIN_FAIL); used by `answersRefusedLogins`.
    static let loginRefused: UInt8 = 1
    // Request types (first byte of a request datagram).
    static let status: UInt8 = 0x01, keepAlive: UInt8 = 0x02, telemetry: UInt8 = 0x03, accessList: UInt8 = 0x05
    static let neighbours: UInt8 = 0x06, ownerInfo: UInt8 = 0x07
    // Telemetry permission bits (TELEM_PERM_*).
    static let permLocation: UInt8 = 0x02, permEnvironment: UInt8 = 0x04

    /// A login (anonymous request): admin password, guest (room: read-write) password, or for
    /// a room that allows it read-only access; anything else gets no answer.
    static func login(_ s: inout SimRadioState, _ node: SimNode, password: String, timestamp: UInt32, syncSince: UInt32,
                      now: Duration) -> [UInt8]? {
        guard let server = node.server else { return nil }
        let permissions: UInt8
        if password.isEmpty, let known = s.sessions[node.publicKey] {
            permissions = known.permissions   // a blank password logs a known client in again
        } else if password == server.adminPassword {
            permissions = 3
        } else if password == server.guestPassword {
            permissions = node.type == .room ? 2 : 0
        } else if node.type == .room, server.allowReadOnly {
            permissions = 0
        } else if server.answersRefusedLogins {
            return le32(s.deviceTime(at: now)) + [loginRefused]
        } else {
            return nil
        }
        if let old = s.sessions[node.publicKey], timestamp <= old.lastTimestamp { return nil }   // a replay
        var session = SimAccessEntry(permissions: permissions, lastTimestamp: timestamp, syncSince: syncSince)
        let isAdmin: UInt8 = session.isAdmin ? 1 : (node.type == .room && permissions == 0 ? 2 : 0)
        if node.type == .room { pushPosts(&s, room: node, since: syncSince, now: now, session: &session) }
        s.sessions[node.publicKey] = session
        // Keep-alive byte 0: current servers recommend none, so the radio starts no connection.
        return le32(s.deviceTime(at: now)) + [loginOK, 0, isAdmin, permissions] + random4(&s) + [server.firmwareLevel]
    }

    /// A request datagram. Servers answer only clients in their access list; a companion
    /// answers telemetry when its owner allows it.
    static func request(_ s: inout SimRadioState, _ node: SimNode, tag: UInt32, request: [UInt8], now: Duration) -> [UInt8]? {
        guard let type = request.first else { return nil }
        guard node.server != nil else {
            return type == telemetry && node.answersTelemetry ? le32(tag) + telemetryRecords(&s, node, mask: 0xFF) : nil
        }
        guard let session = s.sessions[node.publicKey] else { return nil }
        switch type {
        case status:
            return le32(tag) + statusBlob(node, now: now)
        case telemetry:
            // The first reserved byte is an inverse mask; guests get base data only.
            let mask: UInt8 = session.permissions & 3 == 0 ? 0 : ~(request.count > 1 ? request[1] : 0)
            return le32(tag) + telemetryRecords(&s, node, mask: mask)
        case accessList where session.isAdmin:
            return le32(tag) + Array(s.publicKey.bytes.prefix(6)) + [session.permissions]
        case neighbours where node.type == .repeater && request.count >= 7 && request[1] == 0:
            return le32(tag) + neighbourList(s, node, count: Int(request[2]), offset: Int(request[3]) | Int(request[4]) << 8,
                                             prefixLength: Int(request[6]))
        case ownerInfo where node.type == .repeater && (node.server?.firmwareLevel ?? 0) >= 2:
            return le32(tag) + Array("\(SimHandler.firmwareVersion)\n\(node.name)\n\(node.server?.ownerInfo ?? "")".utf8)
        default:
            return nil
        }
    }

    /// Anonymous requests to a repeater (regions, owner, clock): answered only when they
    /// arrive direct, as the firmware requires.
    static func anonymous(_ s: inout SimRadioState, _ node: SimNode, tag: UInt32, request: [UInt8], viaFlood: Bool, now: Duration) -> [UInt8]? {
        guard node.type == .repeater, !viaFlood, let type = request.first, request.count >= 2 else { return nil }
        let head = le32(tag) + le32(s.deviceTime(at: now))
        switch type {
        case 0x01: return head   // no regions defined
        case 0x02: return head + Array("\(node.name)\n\(node.server?.ownerInfo ?? "")".utf8)
        case 0x03: return head + [0]   // feature flags: not a bridge, forwarding on
        default: return nil
        }
    }

    /// Battery first (base permission), then location and environment sensors as permitted;
    /// repeaters and room servers add their MCU temperature.
    static func telemetryRecords(_ s: inout SimRadioState, _ node: SimNode, mask: UInt8) -> [UInt8] {
        var records = [LPPRecord(channel: 1, type: .voltage, values: [Double(node.batteryMillivolts) / 1000])]
        for r in node.sensors {
            let permission = r.type == .gps ? permLocation : permEnvironment
            if mask & permission != 0 { records.append(r) }
        }
        if node.type == .repeater || node.type == .room { records.append(LPPRecord(channel: 1, type: .temperature, values: [21.5])) }
        return lpp(&s, records)
    }

    /// Scenario files are checked when loaded, so a record that cannot be encoded is the
    /// simulation's own bug: it is left out and reported.
    static func lpp(_ s: inout SimRadioState, _ records: [LPPRecord]) -> [UInt8] {
        var out: [UInt8] = []
        for r in records {
            do { out += try CayenneLPP.encode([r]) } catch { s.problems.append("telemetry record \(r.type.name) on channel \(r.channel): \(error)") }
        }
        return out
    }

    /// RepeaterStats (56 bytes); a room server's ServerStats ends with post counters instead.
    static func statusBlob(_ node: SimNode, now: Duration) -> [UInt8] {
        let uptime = UInt32(truncatingIfNeeded: now.milliseconds / 1000) + 86_400
        var st = RepeaterStatus(batteryMillivolts: node.batteryMillivolts, noiseFloor: -116, lastRSSI: -92, packetsReceived: 1200 + uptime / 30,
                                packetsSent: 800 + uptime / 45, airtimeSeconds: uptime / 200, uptimeSeconds: uptime, sentFlood: 500 + uptime / 90,
                                sentDirect: 300 + uptime / 90, receivedFlood: 900 + uptime / 40, receivedDirect: 300 + uptime / 120,
                                lastSNRx4: 26, directDuplicates: 12, floodDuplicates: 340, rxAirtimeSeconds: uptime / 150, receiveErrors: 3)
        guard node.type == .room else { return st.blob }
        st.receiveErrors = nil
        let posts = UInt16(clamping: node.server?.posts.count ?? 0)
        return Array(st.blob.prefix(48)) + [UInt8(posts & 0xFF), UInt8(posts >> 8), 0, 0]
    }

    /// Nodes heard directly by this repeater: those whose route ends at it.
    static func neighbourList(_ s: SimRadioState, _ node: SimNode, count: Int, offset: Int, prefixLength: Int) -> [UInt8] {
        let hash = node.publicKey.bytes[0]
        let heard = s.nodes.values.filter { $0.route.last == hash }.sorted { $0.publicKey.hex < $1.publicKey.hex }
        let page = heard.dropFirst(offset).prefix(count)
        var out = le16(heard.count) + le16(page.count)
        for (i, n) in page.enumerated() {
            out += Array(n.publicKey.bytes.prefix(max(1, min(prefixLength, 32)))) + le32(UInt32(60 * (i + 1))) + [UInt8(bitPattern: 28)]
        }
        return out
    }

    /// A room server sends the posts the radio has not seen (others' posts after `since`),
    /// one every 1.2 s from 2 s after the login.
    static func pushPosts(_ s: inout SimRadioState, room: SimNode, since: UInt32, now: Duration, session: inout SimAccessEntry) {
        let posts = (room.server?.posts ?? []).filter { $0.postedAt > since && $0.author != s.publicKey }
        for (i, p) in posts.enumerated() {
            SimHandler.deliver(&s, .roomPost(from: room.publicKey, author: p.author, text: p.text, postedAt: p.postedAt),
                               at: now + .milliseconds(Int64(2000 + 1200 * i)))
            session.syncSince = max(session.syncSince, p.postedAt)
        }
    }

    /// Whether a packet crosses `hops + 1` links when each loses it with `lossPerHop`.
    static func survives(_ s: inout SimRadioState, hops: Int) -> Bool {
        guard s.lossPerHop > 0 else { return true }
        for _ in 0...hops where Double.random(in: 0..<1, using: &s.rng) < s.lossPerHop { return false }
        return true
    }

    static func random4(_ s: inout SimRadioState) -> [UInt8] { (0..<4).map { _ in UInt8.random(in: 0...255, using: &s.rng) } }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
}
