/// Runs a `GatewayMesh` in real time: sends the air's packets when they are due and hands each
/// hearing to its gateway's radio, which pushes it as LOG_RX_DATA when it is due. All radios
/// and the air read one clock, so a packet reaches every gateway on the same timeline.
public actor SharedAir {
    private var air: SimAir
    public nonisolated let radios: [SimRadio]
    private let clock: any SimClock

    public init(_ mesh: GatewayMesh, clock: any SimClock = SystemSimClock()) {
        air = mesh.air
        radios = mesh.radios.map { SimRadio(state: $0, clock: clock) }
        self.clock = clock
    }

    /// What the air could not do (its own bugs), for tests and logs.
    public var problems: [String] { air.problems }

    /// Carries what the radios transmitted and sends what is due by now, hands the hearings
    /// to the radios, then lets each radio push what is due.
    public func tick() async {
        var hearings: [AirHearing] = []
        for (g, radio) in radios.enumerated() {
            for sent in await radio.takeAired() { hearings += air.transmit(sent, fromGateway: g) }
        }
        hearings += air.advance(to: clock.elapsed)
        for hearing in hearings {
            await radios[hearing.gateway].hear(hearing.packet, at: hearing.due)
        }
        for radio in radios { await radio.tick() }
    }

    /// Runs the air and the radios' scheduled events until cancelled.
    public func runTimers() async {
        repeat {
            await tick()
            var next = air.nextDue
            for radio in radios {
                if let due = await radio.nextDue { next = min(next ?? due, due) }
            }
            guard await clock.sleep(until: next) else { return }
        } while true
    }
}
