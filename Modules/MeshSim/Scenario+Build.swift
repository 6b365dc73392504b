import MeshCodec
import MeshCrypto

extension Scenario {
    /// The radio and mesh this scenario describes; `seed` (the command line's) wins over the
    /// file's. Every reference and range is checked, so the simulation cannot fail later.
    public func state(seed override: UInt64? = nil) throws -> SimRadioState {
        let seed = override ?? seed ?? 1
        var limits = SimLimits()
        if let n = radio?.maxContacts { limits.maxContacts = try Self.check(n, in: 1...1000, "radio.maxContacts") }
        if let n = radio?.offlineQueueSize { limits.offlineQueueSize = try Self.check(n, in: 1...1000, "radio.offlineQueueSize") }
        if let cap = radio?.txPowerCap {
            guard (-9...limits.maxTxPower).contains(cap) else { throw ScenarioError("radio.txPowerCap", "\(cap) dBm is outside -9...\(limits.maxTxPower)") }
            limits.txPowerCap = cap
        }
        var s = extendsDefault == true ? DefaultMesh.state(seed: seed, limits: limits)
                                       : SimRadioState(seed: seed, limits: limits, clock: radio?.clock ?? SimRadioState.bootTime)
        if let radio { try apply(radio, to: &s) }
        if let loss = lossPerHop {
            guard (0...1).contains(loss) else { throw ScenarioError("lossPerHop", "\(loss) is not between 0 and 1") }
            s.lossPerHop = loss
        }
        var rng = SimRNG(seed: seed ^ 0x5CE_4A210)
        var ids: [String: PublicKey] = [:]
        var pairs: [String: Ed25519.KeyPair] = [:]
        try addNodes(to: &s, ids: &ids, pairs: &pairs, seed: seed, rng: &rng)
        for (i, g) in (generate ?? []).enumerated() { try generateNodes(g, at: "generate[\(i)]", to: &s, seed: seed, rng: &rng) }
        if let backlog { try queueBacklog(backlog, in: &s) }
        for (i, e) in (events ?? []).enumerated() { try schedule(e, at: "events[\(i)]", in: &s, ids: ids) }
        if let overheard { try startOverheard(overheard, in: &s) }
        if let chatter {
            let start = chatter.startAt ?? 5
            guard start >= 0, start <= 86_400 else { throw ScenarioError("chatter.startAt", "\(start) is outside 0...86400 seconds") }
            SimHandler.startChatter(&s, at: .milliseconds(Int64(start * 1000)))
        }
        return s
    }

    private func apply(_ r: RadioSpec, to s: inout SimRadioState) throws {
        if let name = r.name { s.name = Self.nodeName(name) }
        var params = s.radio
        if let v = r.frequencyKHz { params.frequencyKHz = v }
        if let v = r.bandwidthHz { params.bandwidthHz = v }
        if let v = r.spreadingFactor { params.spreadingFactor = v }
        if let v = r.codingRate { params.codingRate = v }
        guard params.isInFirmwareRange else { throw ScenarioError("radio", "\(params.frequencyKHz) kHz, \(params.bandwidthHz) Hz, SF\(params.spreadingFactor), CR\(params.codingRate) is outside the firmware's ranges") }
        s.radio = params
        if let p = r.txPower {
            guard (-9...s.limits.maxTxPower).contains(p) else { throw ScenarioError("radio.txPower", "\(p) dBm is outside -9...\(s.limits.maxTxPower)") }
            s.txPower = p
        }
        if r.latitude != nil || r.longitude != nil { s.position = try Self.coordinates(r.latitude, r.longitude, "radio") }
        if let pin = r.blePin {
            guard pin == 0 || (100_000...999_999).contains(pin) else { throw ScenarioError("radio.blePin", "\(pin) is neither 0 nor six digits") }
            s.blePin = pin
        }
        if let mv = r.batteryMillivolts { s.batteryMillivolts = mv }
        if let noise = r.noiseFloor { s.noiseFloor = try Self.noiseFloor(noise, "radio.noiseFloor") }
        if let clock = r.clock, extendsDefault == true {
            guard s.setDeviceTime(clock, at: .zero) else { throw ScenarioError("radio.clock", "\(clock) is before the default mesh's clock") }
        }
    }

    private func addNodes(to s: inout SimRadioState, ids: inout [String: PublicKey], pairs: inout [String: Ed25519.KeyPair], seed: UInt64,
                          rng: inout SimRNG) throws {
        let specs = nodes ?? []
        // Keys first, so `via` and posts may name nodes defined later in the file.
        for (i, n) in specs.enumerated() {
            let at = "nodes[\(i)]"
            guard ids[n.id] == nil else { throw ScenarioError("\(at).id", "\"\(n.id)\" is used twice") }
            if let hex = n.publicKey {
                guard let key = PublicKey(hex: hex) else { throw ScenarioError("\(at).publicKey", "not 64 hex digits") }
                ids[n.id] = key
            } else {
                let pair = SimIdentity.keyPair(seed: seed, label: "node-\(n.id)")
                pairs[n.id] = pair
                ids[n.id] = SimIdentity.publicKey(of: pair)
            }
        }
        for (i, n) in specs.enumerated() {
            let at = "nodes[\(i)]"
            let key = ids[n.id]!
            let type = try Self.nodeType(n.type, "\(at).type")
            let route: [UInt8] = try (n.via ?? []).enumerated().map { j, id in
                guard let hop = ids[id] else { throw ScenarioError("\(at).via[\(j)]", "no node with id \"\(id)\"") }
                return hop.bytes[0]
            }
            guard route.count <= 63 else { throw ScenarioError("\(at).via", "\(route.count) hops; at most 63") }
            let position = n.latitude == nil && n.longitude == nil ? Self.near(s.position, rng: &rng) : try Self.coordinates(n.latitude, n.longitude, at)
            var node = SimNode(publicKey: key, name: Self.nodeName(n.name ?? n.id), type: type, position: position, route: route,
                               batteryMillivolts: n.batteryMillivolts ?? 3950, answersTelemetry: n.answersTelemetry ?? false, identity: pairs[n.id])
            node.sensors = try (n.sensors ?? []).enumerated().map { j, r in try Self.record(r, "\(at).sensors[\(j)]") }
            node.dropsDirect = n.dropsDirect ?? false
            if let ms = n.ackDelayMs { node.ackDelay = .milliseconds(try Self.check(ms, in: 0...600_000, "\(at).ackDelayMs")) }
            if node.server != nil {
                if let p = n.adminPassword { node.server?.adminPassword = p }
                if let p = n.guestPassword { node.server?.guestPassword = p }
                if let b = n.allowReadOnly { node.server?.allowReadOnly = b }
                if let o = n.ownerInfo { node.server?.ownerInfo = o }
                node.server?.posts = try (n.posts ?? []).enumerated().map { j, p in
                    guard let author = ids[p.from] else { throw ScenarioError("\(at).posts[\(j)].from", "no node with id \"\(p.from)\"") }
                    // Up to the device clock's start (1970): earlier would wrap around.
                    let minutes = try Self.check(p.minutesAgo ?? 0, in: 0...Int(s.deviceTime(at: .zero) / 60), "\(at).posts[\(j)].minutesAgo")
                    let text = try Self.postText(p.text, "\(at).posts[\(j)].text")
                    return RoomPost(author: author, text: text, postedAt: s.deviceTime(at: .zero) - UInt32(60 * minutes))
                }
            } else if n.posts != nil || n.adminPassword != nil || n.guestPassword != nil {
                throw ScenarioError(at, "passwords and posts need a repeater, room or sensor, not a \(type)")
            }
            s.nodes[node.publicKey] = node
            try addContact(for: node, contact: n.contact ?? true, knownPath: n.knownPath ?? false, favourite: n.favourite ?? false, at: at, to: &s)
        }
    }

    private func generateNodes(_ g: GenerateSpec, at: String, to s: inout SimRadioState, seed: UInt64, rng: inout SimRNG) throws {
        let count = try Self.check(g.count, in: 0...5000, "\(at).count")
        let type = try Self.nodeType(g.type, "\(at).type")
        let maxHops = try Self.check(g.maxHops ?? 2, in: 0...63, "\(at).maxHops")
        let relays = s.nodes.values.filter { $0.type == .repeater }.map { $0.publicKey.bytes[0] }.sorted()
        let base = s.nodes.count
        // Added to the mesh at once: each change of `nodes` re-sorts the radio's neighbours, so
        // one at a time thousands of generated nodes took minutes (SimRadioState.swift).
        var generated: [PublicKey: SimNode] = [:]
        for i in 0..<count {
            let hops = Int.random(in: 0...maxHops, using: &rng)
            let route = (0..<hops).map { _ in relays.randomElement(using: &rng) ?? UInt8.random(in: 1...0xFE, using: &rng) }
            let node = SimNode(seed: seed, label: "\(at)-\(i)", name: Self.nodeName("\(g.namePrefix ?? "Node") \(base + i + 1)"), type: type,
                               position: Self.near(s.position, rng: &rng), route: route)
            generated[node.publicKey] = node
            try addContact(for: node, contact: g.contact ?? true, knownPath: i % 2 == 0, favourite: false, at: "\(at) (node \(i + 1))", to: &s)
        }
        s.nodes.merge(generated) { _, new in new }
    }

    /// The radio's contact for `node`, when `contact`.
    private func addContact(for node: SimNode, contact: Bool, knownPath: Bool, favourite: Bool, at: String, to s: inout SimRadioState) throws {
        guard contact else { return }
        let heard = s.deviceTime(at: .zero) &- 3600
        let record = Contact(publicKey: node.publicKey, type: node.type, flags: favourite ? .favourite : [], outPath: knownPath ? node.path : .none,
                             name: node.name, lastAdvert: heard, position: node.position, lastModified: heard + 5)
        guard s.contacts.upsert(record) else {
            throw ScenarioError(at, "the contact table is full (radio.maxContacts is \(s.limits.maxContacts))")
        }
    }

    private func schedule(_ e: EventSpec, at: String, in s: inout SimRadioState, ids: [String: PublicKey]) throws {
        guard e.at >= 0, e.at < 1e7 else { throw ScenarioError("\(at).at", "\(e.at) s is not a time after the start") }
        let due = Duration.milliseconds(Int64(e.at * 1000))
        let sentAt = s.deviceTime(at: due)
        func node(_ id: String, _ field: String) throws -> SimNode {
            guard let key = ids[id] ?? s.nodes.values.first(where: { $0.name == id })?.publicKey, let n = s.nodes[key] else {
                throw ScenarioError("\(at).\(field)", "no node with id or name \"\(id)\"")
            }
            return n
        }
        if let r = e.readings {
            guard e.dm == nil, e.channel == nil, e.advert == nil else { throw ScenarioError(at, "needs exactly one of dm, channel, advert, readings") }
            guard r.batteryMillivolts != nil || r.noiseFloor != nil else { throw ScenarioError("\(at).readings", "names neither batteryMillivolts nor noiseFloor") }
            let noise = try r.noiseFloor.map { try Self.noiseFloor($0, "\(at).readings.noiseFloor") }
            SimHandler.schedule(&s, ScheduledEvent(due: due, kind: .readingsChange(batteryMillivolts: r.batteryMillivolts, noiseFloor: noise)))
            return
        }
        switch (e.dm, e.channel, e.advert) {
        case let (dm?, nil, nil):
            let text = try Self.dmText(dm.text, "\(at).dm.text")
            SimHandler.deliver(&s, .direct(from: try node(dm.from, "dm.from").publicKey, text: text, sentAt: sentAt), at: due)
        case let (nil, ch?, nil):
            let index = ch.index ?? 0
            guard Int(index) < s.channels.count else { throw ScenarioError("\(at).channel.index", "slot \(index) does not exist") }
            let sender = try node(ch.from, "channel.from")
            let text = try Self.channelText(ch.text, sender: sender.name, "\(at).channel.text")
            SimHandler.deliver(&s, .channel(index: index, senderName: sender.name, text: text, sentAt: sentAt, hops: sender.hops), at: due)
        case let (nil, nil, from?):
            SimHandler.schedule(&s, ScheduledEvent(due: due, kind: .advertArrives(from: try node(from, "advert").publicKey, timestamp: sentAt)))
        default:
            throw ScenarioError(at, "needs exactly one of dm, channel, advert, readings")
        }
    }

    /// A noise floor a LoRa receiver can report, dBm.
    static func noiseFloor(_ dBm: Int16, _ at: String) throws -> Int16 {
        guard (-150...0).contains(dBm) else { throw ScenarioError(at, "\(dBm) dBm is not a noise floor (-150 to 0)") }
        return dBm
    }

    /// Node names are at most 31 bytes (the contact record's field).
    static func nodeName(_ name: String) -> String { String(decoding: FixedString.truncatedUTF8(name, maxBytes: 31), as: UTF8.self) }

    static func check(_ v: Int, in range: ClosedRange<Int>, _ at: String) throws -> Int {
        guard range.contains(v) else { throw ScenarioError(at, "\(v) is outside \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    static func nodeType(_ name: String?, _ at: String) throws -> NodeType {
        switch name ?? "chat" {
        case "chat": .chat
        case "repeater": .repeater
        case "room": .room
        case "sensor": .sensor
        case let other: throw ScenarioError(at, "unknown node type \"\(other)\" (chat, repeater, room, sensor)")
        }
    }

    static func coordinates(_ lat: Double?, _ lon: Double?, _ at: String) throws -> Coordinates {
        guard let lat, let lon else { throw ScenarioError(at, "latitude and longitude go together") }
        guard abs(lat) <= 90, abs(lon) <= 180 else { throw ScenarioError(at, "\(lat), \(lon) is not a position on Earth") }
        return Coordinates(latitude: lat, longitude: lon)
    }

    /// Somewhere within a few kilometres.
    static func near(_ c: Coordinates, rng: inout SimRNG) -> Coordinates {
        let center = c.isZero ? DefaultMesh.center : c
        return Coordinates(latitudeE6: center.latitudeE6 + Int32.random(in: -40_000...40_000, using: &rng),
                           longitudeE6: center.longitudeE6 + Int32.random(in: -60_000...60_000, using: &rng))
    }

    static func record(_ r: SensorSpec, _ at: String) throws -> LPPRecord {
        guard let type = LPPType.all.first(where: { $0.name == r.type }) else { throw ScenarioError("\(at).type", "unknown LPP type \"\(r.type)\"") }
        let record = LPPRecord(channel: r.channel ?? 2, type: type, values: r.values)
        do {
            _ = try CayenneLPP.encode([record])
        } catch {
            throw ScenarioError(at, "cannot be sent as LPP: \(error)")
        }
        return record
    }
}
