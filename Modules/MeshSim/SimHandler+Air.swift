import MeshCodec

/// What the radio hears on air, pushed as LOG_RX_DATA while an app is connected (Docs/protocol.md
/// §5; the firmware logs every packet it receives, before de-duplication): each packet that
/// reaches it, and the echoes of flood packets, its own included, as neighbouring repeaters
/// rebroadcast them. Apps build "heard repeats" and channel echoes from these.
extension SimHandler {
    /// Repeaters within the radio's reach (zero-hop), in key order.
    static func neighbourRepeaters(_ s: SimRadioState) -> [SimNode] { s.neighbourRepeaters }

    /// The neighbouring repeater whose key starts with the hop hash `hash`.
    static func neighbourRepeater(_ s: SimRadioState, hash: [UInt8]) -> SimNode? {
        s.neighbourRepeaters.first { $0.publicKey.bytes.starts(with: hash) }
    }

    /// The LOG_RX_DATA push for `packet` heard from the node whose key starts with `sender`.
    static func heard(_ s: inout SimRadioState, _ packet: AirPacket?, from sender: [UInt8]) -> [RadioFrame] {
        guard let packet, let log = logRecord(&s, packet, from: sender) else { return [] }
        return [.push(.logRxData(log))]
    }

    /// A trace back at the radio, logged before it is reported: direct, its path the SNR (× 4)
    /// each hop heard, its payload tag, auth code, flags and the hop hashes; heard from the last
    /// hop at the trace's final SNR.
    static func heardTrace(_ s: inout SimRadioState, _ trace: TraceData) -> [RadioFrame] {
        var payload = [UInt8]()
        for word in [trace.tag, trace.authCode] { payload += (0..<4).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
        payload.append(trace.flags)
        payload += trace.pathHashes
        let snrs = trace.hopSNRx4.map { UInt8(bitPattern: $0) }
        guard let length = PathLength(hops: snrs.count) else { return [] }
        let packet = AirPacket(route: .direct, payloadType: .trace, path: Path(length: length, bytes: snrs), payload: payload)
        guard var log = logRecord(&s, packet, from: Array(trace.pathHashes.suffix(trace.hashSize))) else { return [] }
        log.snrX4 = trace.finalSNRx4
        return [.push(.logRxData(log))]
    }

    /// A packet a node of the mesh sends the radio: the copy that arrives (its push, to come
    /// before what the packet causes), and on a flood the echoes after it.
    static func arrives(_ s: inout SimRadioState, _ packet: AirPacket?, lastHop: [UInt8], at: Duration) -> [RadioFrame] {
        guard let packet else {
            s.problems.append("could not build an air packet from \(Hex.encode(lastHop))")
            return []
        }
        scheduleEchoes(&s, of: packet, at: at)
        return heard(&s, packet, from: lastHop)
    }

    /// A message reaching the radio, as heard: a DM or room post (TXT_MSG, direct when the
    /// radio has a path to the sender, else flood) or a channel text (GRP_TXT, flood).
    static func arrival(_ s: inout SimRadioState, _ message: IncomingMessage, at: Duration) -> [RadioFrame] {
        let from: PublicKey, content: TextContent
        switch message {
        case let .direct(key, text, sentAt, _):
            (from, content) = (key, TextContent(timestamp: sentAt, text: Array(text.utf8)))
        case let .roomPost(room, author, text, postedAt, _):
            (from, content) = (room, TextContent(timestamp: postedAt, textType: .signedPlain, text: author.prefix(4).bytes + Array(text.utf8)))
        case let .channel(index, sender, text, sentAt, hops, _):
            guard Int(index) < s.channels.count, !s.channels[Int(index)].isEmpty else { return [] }
            let path = channelPath(s, sender: sender, hops: hops)
            let line = Array(Array("\(sender): \(text)".utf8).prefix(SendChannelTextMessage.maxTotalBytes))
            let packet = AirPackets.groupText(secret: s.channels[Int(index)].secret, timestamp: sentAt, line: line, path: path)
            let last = path.hops.last.map { neighbourRepeater(s, hash: $0)?.publicKey.bytes ?? $0 }
            return arrives(&s, packet, lastHop: last ?? Array(SHA256.hash(Array(sender.utf8)).prefix(3)), at: at)
        }
        guard let node = s.nodes[from] else { return [] }
        let direct = s.contacts.contact(from).map { !$0.outPath.length.isNone } ?? false
        let packet = AirPackets.text(&s, peer: from, fromRadio: false, content: content, route: direct ? .direct : .flood,
                                     path: direct ? AirPackets.emptyPath : arrivalPath(node))
        return arrives(&s, packet, lastHop: lastHop(s, node), at: at)
    }

    /// A channel sender's path: its route when it is a node of the mesh, else `hops` hashes
    /// from its name, the last one a neighbouring repeater's.
    private static func channelPath(_ s: SimRadioState, sender: String, hops: Int) -> Path {
        if let node = s.nodes.values.first(where: { $0.name == sender && $0.hops == hops }) { return arrivalPath(node) }
        guard hops > 0 else { return AirPackets.emptyPath }
        let digest = SHA256.hash(Array(sender.utf8))
        var bytes = (0..<hops - 1).map { digest[$0 % digest.count] }
        let neighbours = neighbourRepeaters(s)
        bytes.append(neighbours.isEmpty ? digest[31] : neighbours[Int(digest[0]) % neighbours.count].publicKey.bytes[0])
        return AirPackets.path(bytes)
    }

    /// A packet the radio sends: on a flood the radio hears its neighbours repeat it, on a
    /// direct route the first hop pass it on.
    static func transmitted(_ s: inout SimRadioState, _ packet: AirPacket?, at: Duration) {
        guard let packet else {
            s.problems.append("could not build an air packet of the radio's")
            return
        }
        aired(&s, packet, at: at)
        if packet.route.isFlood { scheduleEchoes(&s, of: packet, at: at) } else { scheduleForward(&s, of: packet, at: at) }
    }

    /// A packet of the radio's on a shared air, for the other gateways to hear (SharedAir.swift).
    static func aired(_ s: inout SimRadioState, _ packet: AirPacket, at: Duration) {
        if s.sharesAir { s.aired.append(AiredPacket(packet: packet, sentAt: at)) }
    }

    /// Every neighbouring repeater not yet on a flood packet's path rebroadcasts it, after the
    /// firmware's random retransmit delay (0-4 times half its airtime), and the radio hears
    /// each copy, its own packets included: two links (to the repeater and back) to survive.
    static func scheduleEchoes(_ s: inout SimRadioState, of packet: AirPacket, at: Duration) {
        guard packet.route.isFlood, let raw = encoded(&s, packet) else { return }
        let size = packet.path.length.hashSize
        let airtime = Airtime.milliseconds(payloadBytes: raw.count, radio: s.radio)
        let onPath = Set(packet.path.hops)
        for repeater in neighbourRepeaters(s) {
            let hash = Array(repeater.publicKey.bytes.prefix(size))
            guard !onPath.contains(hash), airSurvives(&s, links: 2),
                  let path = Path(hops: packet.path.hops + [hash], hashSize: size) else { continue }
            var echo = packet
            echo.path = path
            let delay = airtime + Double(Int.random(in: 0...4, using: &s.airRNG)) * airtime * 0.52 + airtime
            guard let log = logRecord(&s, echo, from: repeater.publicKey.bytes) else { continue }
            schedule(&s, ScheduledEvent(due: at + .milliseconds(Int64(delay)), kind: .heard(log)))
        }
    }

    /// A direct packet of the radio's whose first hop is a neighbouring repeater: the radio
    /// hears that repeater pass it on, its hash taken off the path.
    static func scheduleForward(_ s: inout SimRadioState, of packet: AirPacket, at: Duration) {
        let hops = packet.path.hops
        guard !packet.route.isFlood, let first = hops.first, let raw = encoded(&s, packet),
              let repeater = neighbourRepeater(s, hash: first),
              airSurvives(&s, links: 2), let rest = Path(hops: Array(hops.dropFirst()), hashSize: first.count) else { return }
        var forwarded = packet
        forwarded.path = rest
        let airtime = Airtime.milliseconds(payloadBytes: raw.count, radio: s.radio)
        // Direct traffic is forwarded without a retransmit delay.
        let delay = 2 * airtime + Double(Int.random(in: 20...120, using: &s.airRNG))
        guard let log = logRecord(&s, forwarded, from: repeater.publicKey.bytes) else { return }
        schedule(&s, ScheduledEvent(due: at + .milliseconds(Int64(delay)), kind: .heard(log)))
    }

    /// The path a flood packet from `node` carries when the radio hears it: the repeaters it
    /// passed, farthest first, as each appends its hash.
    static func arrivalPath(_ node: SimNode) -> Path { AirPackets.path(node.route.reversed()) }

    /// Whom the radio hears a packet from `node` from: its nearest repeater, or itself.
    static func lastHop(_ s: SimRadioState, _ node: SimNode) -> [UInt8] {
        guard let first = node.route.first else { return node.publicKey.bytes }
        return neighbourRepeater(s, hash: [first])?.publicKey.bytes ?? [first]
    }

    /// Flood packets of the radio's start with an empty path whose hash size is the radio's
    /// path hash mode.
    static func ownFloodPath(_ s: SimRadioState) -> Path {
        Path(length: PathLength(hops: 0, hashSize: Int(min(s.pathHashMode, 2)) + 1) ?? PathLength(raw: 0), bytes: [])
    }

    private static func logRecord(_ s: inout SimRadioState, _ packet: AirPacket, from sender: [UInt8]) -> ReceivedPacket? {
        guard let raw = encoded(&s, packet), raw.count + 3 <= defaultMaxFrameLength else { return nil }
        // Each sender's link has its own steady quality, from its key: SNR -5 to 10.75 dB, RSSI -40 to -109 dBm.
        let b1 = sender.count > 1 ? sender[1] : sender.first ?? 0, b2 = sender.count > 2 ? sender[2] : b1
        return ReceivedPacket(snrX4: Int8(Int(b1 % 64) - 20), rssi: Int8(-40 - Int(b2 % 70)), payload: raw)
    }

    private static func encoded(_ s: inout SimRadioState, _ packet: AirPacket) -> [UInt8]? {
        do {
            return try packet.encode()
        } catch {
            s.problems.append("cannot encode an air packet: \(error)")
            return nil
        }
    }

    private static func airSurvives(_ s: inout SimRadioState, links: Int) -> Bool {
        guard s.lossPerHop > 0 else { return true }
        for _ in 0..<links where Double.random(in: 0..<1, using: &s.airRNG) < s.lossPerHop { return false }
        return true
    }
}
