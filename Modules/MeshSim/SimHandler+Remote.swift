import MeshCodec

/// Remote requests (Docs/protocol.md §7.5): login, status, telemetry, binary and anonymous
/// requests, path discovery and trace. Each answers SENT at once; the node's reply arrives
/// later and is matched against the one request the radio still tracks.
extension SimHandler {
    static func sendLogin(_ s: inout SimRadioState, _ key: PublicKey, password: String, now: Duration) -> [RadioFrame] {
        guard let contact = s.contacts.contact(key) else { return [error(.notFound)] }
        // Only the first 15 bytes of the password travel.
        let password = String(decoding: Array(password.utf8.prefix(15)), as: UTF8.self)
        let timestamp = s.uniqueTime(at: now)
        let syncSince = s.roomSyncSince[key] ?? 0
        let body = (contact.type == .room ? 8 : 4) + password.utf8.count
        let leg = departure(&s, contact, packetBytes: Airtime.anonRequestBytes(bodyBytes: body, pathBytes: contact.outPath.bytes.count))
        let prefix = Array(key.bytes.prefix(4))
        s.pending = .login(prefix: prefix)
        if let node = s.nodes[key], let reply = SimServerLogic.login(&s, node, password: password, timestamp: timestamp, syncSince: syncSince, now: now) {
            scheduleReply(&s, from: node, data: reply, leg: leg, now: now)
        }
        return [.response(.sent(Sent(flood: leg.flood, ackCode: AckCode(bytes: prefix) ?? AckCode(0), suggestedTimeoutMs: leg.timeoutMs)))]
    }

    /// SEND_STATUS_REQ, SEND_TELEMETRY_REQ (remote), SEND_BINARY_REQ: a request datagram
    /// (tag, then the request) to a contact.
    static func sendRequest(_ s: inout SimRadioState, _ key: PublicKey, _ request: [UInt8], pending: (UInt32) -> PendingRequest,
                            now: Duration) -> [RadioFrame] {
        guard let contact = s.contacts.contact(key) else { return [error(.notFound)] }
        // A request must fit one packet (MAX_PACKET_PAYLOAD − 16).
        guard request.count <= 168 else { return [error(.tableFull)] }
        let tag = s.uniqueTime(at: now)
        let leg = departure(&s, contact, packetBytes: Airtime.requestBytes(bodyBytes: 4 + request.count, pathBytes: contact.outPath.bytes.count))
        s.pending = pending(tag)
        if let node = s.nodes[key], let reply = SimServerLogic.request(&s, node, tag: tag, request: request, now: now) {
            scheduleReply(&s, from: node, data: reply, leg: leg, now: now)
        }
        return [.response(.sent(Sent(flood: leg.flood, ackCode: AckCode(tag), suggestedTimeoutMs: leg.timeoutMs)))]
    }

    /// The request the firmware builds for STATUS and legacy TELEMETRY: type, 4 reserved
    /// zero bytes (an inverse permission mask of 0: everything), 4 random bytes.
    static func typedRequest(_ s: inout SimRadioState, _ type: UInt8) -> [UInt8] {
        [type, 0, 0, 0, 0] + (0..<4).map { _ in UInt8.random(in: 0...255, using: &s.rng) }
    }

    /// SEND_TELEMETRY_REQ of exactly 4 bytes: the radio's own telemetry, pushed at once.
    static func selfTelemetry(_ s: inout SimRadioState) -> [RadioFrame] {
        let records = [LPPRecord(channel: 1, type: .voltage, values: [Double(s.batteryMillivolts) / 1000]),
                       LPPRecord(channel: 1, type: .temperature, values: [24.5])]
        return [.push(.telemetryResponse(s.publicKey.prefix(), lpp: SimServerLogic.lpp(&s, records)))]
    }

    /// SEND_PATH_DISCOVERY_REQ: a flood telemetry request for base data; the path-return
    /// carries both paths and the contact's stored path stays as it was.
    static func sendPathDiscovery(_ s: inout SimRadioState, _ key: PublicKey, now: Duration) -> [RadioFrame] {
        guard var contact = s.contacts.contact(key) else { return [error(.notFound)] }
        contact.outPath = .none
        let tag = s.uniqueTime(at: now)
        let leg = departure(&s, contact, packetBytes: Airtime.requestBytes(bodyBytes: 13, pathBytes: 0))
        s.pending = .discovery(tag: tag)
        if let node = s.nodes[key], node.server == nil ? node.answersTelemetry : s.sessions[key] != nil, SimServerLogic.survives(&s, hops: node.hops) {
            let trip = roundTrip(&s, hops: node.hops, outMs: leg.airtimeMs, backMs: leg.airtimeMs, serverDelayMs: 300)
            schedule(&s, ScheduledEvent(due: now + trip, kind: .discoveryArrives(from: key, tag: tag, outPath: node.path, inPath: node.returnPath)))
        }
        return [.response(.sent(Sent(flood: true, ackCode: AckCode(tag), suggestedTimeoutMs: leg.timeoutMs)))]
    }

    /// SEND_ANON_REQ: like a binary request, but the target need not be a contact: an unknown
    /// key is sent to zero-hop direct (v13; the firmware's hidden transient slot is not streamed).
    static func sendAnonRequest(_ s: inout SimRadioState, _ key: PublicKey, data: [UInt8], now: Duration) -> [RadioFrame] {
        let contact = s.contacts.contact(key)
            ?? Contact(publicKey: key, type: .none, outPath: Path(length: PathLength(raw: 0), bytes: []), name: "", lastModified: s.deviceTime(at: now))
        let tag = s.uniqueTime(at: now)
        let leg = departure(&s, contact, packetBytes: Airtime.anonRequestBytes(bodyBytes: 4 + data.count, pathBytes: contact.outPath.bytes.count))
        s.pending = .binary(tag: tag)
        if let node = s.nodes[key], let reply = SimServerLogic.anonymous(&s, node, tag: tag, request: data, viaFlood: leg.flood, now: now) {
            scheduleReply(&s, from: node, data: reply, leg: leg, now: now)
        }
        return [.response(.sent(Sent(flood: leg.flood, ackCode: AckCode(tag), suggestedTimeoutMs: leg.timeoutMs)))]
    }

    /// SEND_TRACE_PATH: sent direct along the given hop hashes. It comes back when every hop is
    /// a repeater or room server of the mesh, each adding the SNR it heard.
    static func sendTrace(_ s: inout SimRadioState, _ t: TraceRequest, now: Duration) -> [RadioFrame] {
        let hashSize = 1 << Int(t.flags & 3)
        guard !t.path.isEmpty, t.path.count % hashSize == 0, t.path.count / hashSize <= 64 else { return [error(.illegalArgument)] }
        let hops = t.path.count / hashSize
        let bytes = 2 + t.path.count + 9
        let airtime = Airtime.milliseconds(payloadBytes: bytes, radio: s.radio)
        countSent(&s, flood: false, airtime: airtime)
        let relays = s.nodes.values.filter { $0.type == .repeater || $0.type == .room }
        let known = stride(from: 0, to: t.path.count, by: hashSize).allSatisfy { i in
            relays.contains { $0.publicKey.bytes.starts(with: t.path[i..<(i + hashSize)]) }
        }
        if known, SimServerLogic.survives(&s, hops: hops) {
            var trip = 0.0
            for _ in 0...hops { trip += airtime + Double(Int.random(in: 20...120, using: &s.rng)) }
            let snrs = (0..<hops).map { _ in Int8.random(in: -20...48, using: &s.rng) }
            let data = TraceData(flags: t.flags, tag: t.tag, authCode: t.authCode, pathHashes: t.path, hopSNRx4: snrs,
                                 finalSNRx4: Int8.random(in: -20...48, using: &s.rng))
            schedule(&s, ScheduledEvent(due: now + .milliseconds(Int64(trip)), kind: .traceArrives(data)))
        }
        let timeout = Airtime.directTimeout(airtime: airtime, hops: hops)
        return [.response(.sent(Sent(flood: false, ackCode: AckCode(t.tag), suggestedTimeoutMs: timeout)))]
    }

    /// How a request leaves: flood when the contact has no path, the suggested timeout for it.
    struct Departure {
        var flood: Bool
        var hops: Int
        var airtimeMs: Double
        var timeoutMs: UInt32
    }

    static func departure(_ s: inout SimRadioState, _ contact: Contact, packetBytes: Int) -> Departure {
        let flood = contact.outPath.length.isNone
        let hops = flood ? (s.nodes[contact.publicKey]?.hops ?? 0) : contact.outPath.length.hopCount
        let airtime = Airtime.milliseconds(payloadBytes: packetBytes, radio: s.radio)
        countSent(&s, flood: flood, airtime: airtime)
        let timeout = flood ? Airtime.floodTimeout(airtime: airtime) : Airtime.directTimeout(airtime: airtime, hops: hops)
        return Departure(flood: flood, hops: hops, airtimeMs: airtime, timeoutMs: timeout)
    }

    static func scheduleReply(_ s: inout SimRadioState, from node: SimNode, data: [UInt8], leg: Departure, now: Duration) {
        // Out and back must both survive the air.
        guard SimServerLogic.survives(&s, hops: node.hops), SimServerLogic.survives(&s, hops: node.hops) else { return }
        let back = Airtime.milliseconds(payloadBytes: Airtime.requestBytes(bodyBytes: data.count, pathBytes: node.hops), radio: s.radio)
        let trip = roundTrip(&s, hops: node.hops, outMs: leg.airtimeMs, backMs: back, serverDelayMs: 300)
        schedule(&s, ScheduledEvent(due: now + trip, kind: .replyArrives(from: node.publicKey, data: data, viaFlood: leg.flood)))
    }

    /// Out over `hops + 1` links and back, each link one packet's airtime plus the receiver's
    /// random rx delay (20-120 ms), plus the time the server waits before it answers.
    static func roundTrip(_ s: inout SimRadioState, hops: Int, outMs: Double, backMs: Double, serverDelayMs: Double) -> Duration {
        var trip = serverDelayMs
        for _ in 0...hops {
            trip += outMs + Double(Int.random(in: 20...120, using: &s.rng))
            trip += backMs + Double(Int.random(in: 20...120, using: &s.rng))
        }
        return .milliseconds(Int64(trip))
    }

    /// A reply reached the radio: matched as `onContactResponse` matches it. A reply to a
    /// request that a newer one replaced is dropped.
    static func contactResponse(_ s: inout SimRadioState, from key: PublicKey, data: [UInt8]) -> [RadioFrame] {
        guard data.count >= 4, let pending = s.pending else { return [] }
        let tag = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        let body = Array(data.dropFirst(4))
        let prefix = key.prefix()
        switch pending {
        case let .login(p) where key.bytes.starts(with: p):
            s.pending = nil
            if body.starts(with: Array("OK".utf8)) { return [.push(.loginSuccess(LoginSuccess(permissions: 0, serverPrefix: prefix)))] }
            guard body.count >= 9, body[0] == SimServerLogic.loginOK else { return [.push(.loginFail(prefix))] }
            return [.push(.loginSuccess(LoginSuccess(permissions: body[2], serverPrefix: prefix, serverTimestamp: tag,
                                                     aclPermissions: body[3], firmwareLevel: body[8])))]
        case let .status(p) where !body.isEmpty && key.bytes.starts(with: p):
            s.pending = nil
            return [.push(.statusResponse(prefix, blob: body))]
        case .telemetry(tag) where !body.isEmpty:
            s.pending = nil
            return [.push(.telemetryResponse(prefix, lpp: body))]
        case .binary(tag) where !body.isEmpty:
            s.pending = nil
            return [.push(.binaryResponse(tag: AckCode(tag), data: body))]
        default:
            return []
        }
    }
}
