import MeshCodec

/// A mesh heard by several gateways: the shared air, and each gateway's companion radio. The
/// mesh's broadcast traffic (chatter, adverts, channel messages, a busy air) moves from the
/// radio's timeline to the air, where every gateway in range hears it; what is addressed to a
/// radio (DMs, replies, ACKs, room posts) stays with each radio, as with one radio.
public struct GatewayMesh: Sendable {
    public var air: SimAir
    /// One radio per gateway, in the order of `air.gateways`.
    public var radios: [SimRadioState]

    /// How many gateways one simulation serves.
    public static let radioRange = 1...64

    /// `mesh` (the default mesh or a scenario's) heard by `gateways`; each radio starts as
    /// `mesh`'s radio (contacts, channels, waiting messages) with its own identity and place.
    public init(mesh: SimRadioState, gateways specs: [GatewaySpec], seed: UInt64) throws {
        var radio = mesh
        radio.scheduled = []
        var traffic: [AirEvent] = []
        for event in mesh.scheduled {
            switch event.kind {
            case .chatter:
                traffic.append(AirEvent(due: event.due, kind: .chatter))
            case let .overheard(run, n):
                traffic.append(AirEvent(due: event.due, kind: .overheard(run, number: n)))
            case let .advertArrives(key, timestamp):
                traffic.append(AirEvent(due: event.due, kind: .advert(key, timestamp: timestamp)))
            case let .messageArrives(.channel(index, sender, text, sentAt, _, _)) where Int(index) < mesh.channels.count:
                traffic.append(AirEvent(due: event.due, kind: .channel(mesh.channels[Int(index)].secret, sender: sender, text: text, sentAt: sentAt)))
            case .heard:
                // Echoes of what the mesh sent before the start, as one radio placed them: on the
                // shared air the mesh's packets are heard only as the air delivers them.
                continue
            default:
                radio.scheduled.append(event)
            }
        }
        radios = []
        for (i, spec) in specs.enumerated() {
            let at = "gateways[\(i)]"
            var s = radio
            let gatewaySeed = spec.seed ?? seed &+ UInt64(i)
            s.setIdentity(try spec.identity(defaultSeed: gatewaySeed, at: at))
            guard !radios.contains(where: { $0.publicKey == s.publicKey }) else { throw ScenarioError(at, "has the same key as another gateway") }
            s.name = Scenario.nodeName(spec.name ?? "MeshSim \(SimIdentity.defaultName(s.publicKey).prefix(4))")
            s.position = try Scenario.coordinates(spec.latitude, spec.longitude, at)
            s.rng = SimRNG(seed: gatewaySeed ^ 0x5EED_0F_5EED)
            s.airRNG = SimRNG(seed: gatewaySeed ^ 0xA1B0_0A1B)
            s.sharesAir = true
            radios.append(s)
        }
        air = SimAir(gateways: radios.map { AirGateway(publicKey: $0.publicKey, position: $0.position) }, mesh: mesh, seed: seed)
        for event in traffic { air.schedule(event) }
        // Nodes without an advert of their own coming advertise in the first half minute.
        let advertising = Set(traffic.compactMap { if case let .advert(key, _) = $0.kind { key } else { nil } })
        for node in mesh.nodes.values.sorted(by: { $0.publicKey.bytes.lexicographicallyPrecedes($1.publicKey.bytes) })
        where !advertising.contains(node.publicKey) {
            let due = Duration.milliseconds(Int64.random(in: 1000...30_000, using: &air.rng))
            air.schedule(AirEvent(due: due, kind: .advert(node.publicKey, timestamp: air.deviceTime(at: due))))
        }
    }
}

extension GatewayMesh {
    /// The built-in mesh (DefaultMesh.swift) heard by `radios` gateways laid out from the seed.
    public static func defaultMesh(radios: Int, seed: UInt64) throws -> GatewayMesh {
        let count = try Scenario.check(radios, in: radioRange, "--radios")
        return try GatewayMesh(mesh: DefaultMesh.state(seed: seed), gateways: GatewaySpec.laidOut(count: count, seed: seed, around: DefaultMesh.center), seed: seed)
    }
}
