import MeshCodec

/// The built-in mesh of `meshport sim`: 20 contacts around one radio (16 companions, 2
/// repeaters, 1 room server, 1 sensor), some messages already waiting, chatter on the Public
/// channel every few seconds, and 2 newcomers whose adverts arrive in the first minute.
/// Everything follows from the seed.
public enum DefaultMesh {
    public static let nodeCount = 20
    /// Login passwords: the firmware's defaults.
    public static let adminPassword = "password", roomPassword = "hello"

    static let names = ["Alder", "Birch", "Cedar", "Dune", "Ember", "Fjord", "Gale", "Heath", "Iris", "Juniper", "Kestrel",
                        "Linden", "Moss", "Nettle", "Orchid", "Pine", "Quill", "Rowan", "Sorrel", "Thistle", "Umber", "Vale"]
    public static let center = Coordinates(latitude: 52.3702, longitude: 4.8952)

    public static func state(seed: UInt64, limits: SimLimits = SimLimits()) -> SimRadioState {
        var s = SimRadioState(seed: seed, limits: limits)
        var rng = SimRNG(seed: seed)
        s.name = "MeshSim \(SimIdentity.defaultName(s.publicKey).prefix(4))"
        s.position = center

        let repeaters = (0..<2).map { i in node(seed: seed, label: "repeater-\(i)", name: "Repeater \(["North", "South"][i])", type: .repeater, rng: &rng) }
        var room = node(seed: seed, label: "room", name: "Town Square", type: .room, route: [repeaters[0].publicKey.bytes[0]], rng: &rng)
        var sensor = node(seed: seed, label: "sensor", name: "Weather Station", type: .sensor, route: [repeaters[1].publicKey.bytes[0]], rng: &rng)
        sensor.sensors = [LPPRecord(channel: 2, type: .temperature, values: [12.5]), LPPRecord(channel: 2, type: .humidity, values: [81]),
                          LPPRecord(channel: 2, type: .barometer, values: [1013.2]),
                          LPPRecord(channel: 2, type: .gps, values: [sensor.position.latitude, sensor.position.longitude, 4])]
        var chats: [SimNode] = []
        var pool = names.shuffled(using: &rng)
        for i in 0..<(nodeCount - 4) {
            // A third zero-hop, the rest behind one or both repeaters.
            let route: [UInt8] = switch i % 3 {
            case 0: []
            case 1: [repeaters[i % 2].publicKey.bytes[0]]
            default: [repeaters[0].publicKey.bytes[0], repeaters[1].publicKey.bytes[0]]
            }
            let name = pool.popLast() ?? "Node \(i)"
            chats.append(node(seed: seed, label: "chat-\(i)", name: name, type: .chat, route: route, rng: &rng))
        }

        // Companions first: the contact a client is likeliest to message comes first.
        room.server?.posts = [("Welcome to Town Square", 0), ("market moved to Saturday", 3), ("lost dog near the bridge, brown, answers to Max", 5)]
            .enumerated().map { i, post in
                RoomPost(author: chats[post.1].publicKey, text: post.0, postedAt: SimRadioState.bootTime - UInt32(86_400 - i * 7200))
            }
        let all = chats + repeaters + [room, sensor]
        for (i, n) in all.enumerated() {
            s.nodes[n.publicKey] = n
            let heard = SimRadioState.bootTime - UInt32(Int.random(in: 600...86_400 * 3, using: &rng))
            // Every other contact has a known path (direct); the rest go flood until a path-return.
            s.contacts.upsert(Contact(publicKey: n.publicKey, type: n.type, outPath: i % 2 == 0 ? n.path : .none, name: n.name,
                                      lastAdvert: heard, position: n.position, lastModified: heard + 5))
        }

        // Waiting since before boot, so queued in the legacy format (no app had declared v3).
        let t0 = SimRadioState.bootTime
        for (i, n) in chats.prefix(3).enumerated() {
            SimHandler.deliver(&s, .direct(from: n.publicKey, text: ["are you on tonight?", "signal is good here", "ping"][i],
                                           sentAt: t0 - UInt32(3600 - i * 600)), at: .zero)
        }
        for i in 0..<4 {
            let n = chats[(3 + i) % chats.count]
            SimHandler.deliver(&s, .channel(index: 0, senderName: n.name, text: ["morning all", "anyone near the harbour?", "testing 1 2 3", "nice weather for range tests"][i],
                                            sentAt: t0 - UInt32(1800 - i * 300), hops: n.hops), at: .zero)
        }
        _ = SimHandler.advance(&s, to: .zero)

        // Arriving while a client may be connected: each one pushes MSG_WAITING.
        SimHandler.startChatter(&s, at: .seconds(15))
        let dmFrom = chats[1]
        SimHandler.deliver(&s, .direct(from: dmFrom.publicKey, text: "are you receiving me?", sentAt: t0 + 40), at: .seconds(40))
        // Two nodes nobody has heard yet advertise: auto-added (ADVERT push) in the default mode.
        for (i, name) in ["Newcomer Wren", "Newcomer Yarrow"].enumerated() {
            let n = node(seed: seed, label: "newcomer-\(i)", name: name, type: .chat, route: [repeaters[i].publicKey.bytes[0]], rng: &rng)
            s.nodes[n.publicKey] = n
            SimHandler.schedule(&s, ScheduledEvent(due: .seconds(25 + 30 * i), kind: .advertArrives(from: n.publicKey, timestamp: t0 + UInt32(25 + 30 * i))))
        }
        return s
    }

    private static func node(seed: UInt64, label: String, name: String, type: NodeType, route: [UInt8] = [], rng: inout SimRNG) -> SimNode {
        SimNode(seed: seed, label: label, name: name, type: type, position: Scenario.near(center, rng: &rng), route: route)
    }
}
