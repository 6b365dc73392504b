import MeshCodec

/// One simulated air heard by several gateways (`meshport sim --radios N`): the mesh's nodes
/// send packets from where they stand, repeaters in range pass flood packets on with their
/// hash appended to the path, and every gateway in range of a copy hears it, with SNR and
/// RSSI from the distance (AirLink.swift). A pure value, like `SimRadioState`: the same seed
/// and the same times give the same hearings. `SharedAir` runs it in real time.
public struct SimAir: Hashable, Sendable {
    /// The gateways, in the order their radios are served.
    public let gateways: [AirGateway]
    /// The mesh's nodes by key, and its repeaters in key order.
    let nodes: [PublicKey: SimNode]
    let repeaters: [SimNode]
    /// Chat nodes in key order: who speaks on the channels.
    let speakers: [SimNode]
    /// Where a sender that is no node of the mesh stands.
    let center: Coordinates
    let radio: RadioParams
    let lossPerHop: Double
    /// The mesh's clock at the start, epoch seconds.
    let clockBase: UInt32
    var rng: SimRNG
    var scheduled: [AirEvent] = []
    /// What the simulation could not do (its own bugs), kept for tests and logs.
    public internal(set) var problems: [String] = []

    init(gateways: [AirGateway], mesh: SimRadioState, seed: UInt64) {
        self.gateways = gateways
        nodes = mesh.nodes
        let sorted = mesh.nodes.values.sorted { $0.publicKey.bytes.lexicographicallyPrecedes($1.publicKey.bytes) }
        repeaters = sorted.filter { $0.type == .repeater }
        speakers = sorted.filter { $0.type == .chat }
        center = mesh.position.isZero ? DefaultMesh.center : mesh.position
        radio = mesh.radio
        lossPerHop = mesh.lossPerHop
        clockBase = mesh.deviceTime(at: .zero)
        rng = SimRNG(seed: seed ^ 0xA1_5A1D)
    }

    /// When the next packet is sent, if any.
    public var nextDue: Duration? { scheduled.first?.due }

    /// Sends every packet due by `now`, in order: the hearings they cause, each due when that
    /// copy has reached its gateway (later than `now`, by airtime and repeaters' delays).
    public mutating func advance(to now: Duration) -> [AirHearing] {
        var out: [AirHearing] = []
        while let first = scheduled.first, first.due <= now {
            scheduled.removeFirst()
            out += send(first, at: first.due)
        }
        return out
    }

    mutating func schedule(_ event: AirEvent) {
        // After every event due at the same time or earlier: equal times keep their order.
        let i = scheduled.firstIndex { $0.due > event.due } ?? scheduled.count
        scheduled.insert(event, at: i)
    }

    func deviceTime(at now: Duration) -> UInt32 { clockBase &+ UInt32(truncatingIfNeeded: now.milliseconds / 1000) }

    /// `packet` sent from `origin` at `at`, and every copy repeaters make of it: who hears
    /// which copy when. A repeater passes a flood packet on once, the first copy it hears,
    /// unless its hash is on the path already, after the firmware's random retransmit delay
    /// (0-4 times 0.52 of the airtime, as SimHandler+Air.swift has it for one radio); each
    /// link loses a copy with the scenario's `lossPerHop`.
    mutating func transmit(_ packet: AirPacket, from origin: SimNode?, at: Duration) -> [AirHearing] {
        transmit(packet, at: origin?.position ?? center, by: origin?.publicKey, sentAt: at)
    }

    /// `packet` sent by gateway `g`'s own radio: the other gateways in range hear it and the
    /// repeaters' copies. `g` itself is left out: its radio hears its own packets' echoes on
    /// its own timeline (SimHandler+Air.swift).
    public mutating func transmit(_ sent: AiredPacket, fromGateway g: Int) -> [AirHearing] {
        transmit(sent.packet, at: gateways[g].position, by: gateways[g].publicKey, sentAt: sent.sentAt).filter { $0.gateway != g }
    }

    private mutating func transmit(_ packet: AirPacket, at position: Coordinates, by sender: PublicKey?, sentAt at: Duration) -> [AirHearing] {
        var pending = [AirCopy(packet: packet, position: position, sentAt: at)]
        var repeated = Set<PublicKey>()
        if let sender { repeated.insert(sender) }
        var out: [AirHearing] = []
        while let next = pending.indices.min(by: { pending[$0].sentAt < pending[$1].sentAt }) {
            let copy = pending.remove(at: next)
            guard let raw = encoded(copy.packet) else { continue }
            let airtime = Airtime.milliseconds(payloadBytes: raw.count, radio: radio)
            let arrival = copy.sentAt + .microseconds(Int64(airtime * 1000))
            for (g, gateway) in gateways.enumerated() {
                guard let link = AirLink.between(copy.position, gateway.position), survives() else { continue }
                // Each gateway's receive chain takes its own few milliseconds to report the packet.
                let jitter = Duration.microseconds(Int64.random(in: 1000...40_000, using: &rng))
                out.append(AirHearing(gateway: g, due: arrival + jitter, packet: ReceivedPacket(snrX4: link.snrX4, rssi: link.rssi, payload: raw)))
            }
            guard copy.packet.route.isFlood else { continue }
            let size = copy.packet.path.length.hashSize
            let onPath = Set(copy.packet.path.hops)
            for r in repeaters where !repeated.contains(r.publicKey) {
                let hash = Array(r.publicKey.bytes.prefix(size))
                guard !onPath.contains(hash), AirLink.between(copy.position, r.position) != nil, survives(),
                      let path = Path(hops: copy.packet.path.hops + [hash], hashSize: size) else { continue }
                repeated.insert(r.publicKey)
                var echo = copy.packet
                echo.path = path
                let delay = airtime * 0.52 * Double(Int.random(in: 0...4, using: &rng))
                pending.append(AirCopy(packet: echo, position: r.position, sentAt: arrival + .microseconds(Int64(delay * 1000))))
            }
        }
        return out
    }

    private mutating func survives() -> Bool {
        guard lossPerHop > 0 else { return true }
        return Double.random(in: 0..<1, using: &rng) >= lossPerHop
    }

    private mutating func encoded(_ packet: AirPacket) -> [UInt8]? {
        do {
            let raw = try packet.encode()
            guard raw.count + 3 <= defaultMaxFrameLength else {
                problems.append("an air packet of \(raw.count) bytes does not fit a LOG_RX_DATA push")
                return nil
            }
            return raw
        } catch {
            problems.append("cannot encode an air packet: \(error)")
            return nil
        }
    }
}

/// A gateway: a companion radio standing somewhere on the shared air.
public struct AirGateway: Hashable, Sendable {
    public var publicKey: PublicKey
    public var position: Coordinates

    public init(publicKey: PublicKey, position: Coordinates) {
        self.publicKey = publicKey
        self.position = position
    }
}

/// One copy of a packet reaching one gateway: pushed by its radio as LOG_RX_DATA at `due`.
public struct AirHearing: Hashable, Sendable {
    /// The gateway's index in `SimAir.gateways`.
    public var gateway: Int
    public var due: Duration
    public var packet: ReceivedPacket
}

/// A copy of a packet on its way: where it was sent from, and when.
struct AirCopy {
    var packet: AirPacket
    var position: Coordinates
    var sentAt: Duration
}

/// A packet a gateway's radio transmitted, waiting for the shared air to carry it.
public struct AiredPacket: Hashable, Sendable {
    public var packet: AirPacket
    public var sentAt: Duration
}
