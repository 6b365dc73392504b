import MeshCodec

/// One simulated companion radio: owns its state, its seeded randomness (inside the state)
/// and its sense of time (an injected clock). A link attaches as a push sink; one at a time,
/// a new one replaces the old, as the firmware's TCP server does.
public actor SimRadio {
    public typealias PushSink = @Sendable (_ frame: [UInt8]) -> Void

    public private(set) var state: SimRadioState
    private let clock: any SimClock
    private var sink: PushSink?
    private var link = 0
    private var encodeProblems: [String] = []
    /// Where the flash-kept part of the state goes after each change (nil: not kept).
    private var saver: (@Sendable (SimSavedState) -> Void)?
    private var lastSaved: SimSavedState?
    /// Where every packet the radio hears is recorded, pushed or not (nil: nowhere).
    private var hearings: (@Sendable (SimHearing) -> Void)?

    /// What the simulation could not do (frames it could not encode, records it could not
    /// build): its own bugs, kept for tests and logs.
    public var problems: [String] { encodeProblems + state.problems }

    public init(state: SimRadioState, clock: any SimClock = SystemSimClock()) {
        self.state = state
        self.clock = clock
    }

    public var now: Duration { clock.elapsed }

    /// Attaches a link; pushes go to `sink` until another link attaches. Returns the link's id.
    public func connect(_ sink: @escaping PushSink) -> Int {
        link += 1
        self.sink = sink
        return link
    }

    /// Detaches link `id` unless a newer link has replaced it already.
    public func disconnect(_ id: Int) {
        if id == link { sink = nil }
    }

    public var isConnected: Bool { sink != nil }

    /// A frame from the link: the frames to write back (conformance commands included).
    public func receive(_ frame: [UInt8]) -> SimLinkReply {
        deliverDue()
        // One save for what the due events and the command changed.
        defer { saveIfChanged() }
        guard !frame.isEmpty else { return SimLinkReply() }
        if let answer = SimLinkReply.conformance(frame) { return answer }
        let out: [RadioFrame]
        do {
            out = SimHandler.handle(&state, try Command(decoding: frame), now: clock.elapsed)
        } catch {
            out = [SimHandler.undecodable(frame)]
        }
        return SimLinkReply(frames: out.compactMap(encode), dropsLink: restarted())
    }

    /// After a restart no link is attached: the app must connect again.
    private func restarted() -> Bool {
        guard state.restarted else { return false }
        state.restarted = false
        sink = nil
        return true
    }

    /// A typed command, for in-process use: the frames the radio answers with.
    public func handle(_ command: Command) -> [RadioFrame] {
        deliverDue()
        defer { saveIfChanged() }
        defer { _ = restarted() }
        return SimHandler.handle(&state, command, now: clock.elapsed)
    }

    /// Keeps what the firmware keeps in flash: `save` gets it now and after every change
    /// (commands and adverts alike), as the firmware writes its files.
    public func persist(_ save: @escaping @Sendable (SimSavedState) -> Void) {
        saver = save
        lastSaved = nil
        saveIfChanged()
    }

    private func saveIfChanged() {
        guard let saver else { return }
        do {
            let saved = try state.saved(at: clock.elapsed)
            // The clock moving on by itself is no change worth a write.
            var unclocked = saved
            unclocked.clock = lastSaved?.clock ?? saved.clock
            guard unclocked != lastSaved else { return }
            lastSaved = saved
            saver(saved)
        } catch {
            encodeProblems.append("cannot save the state: \(error)")
        }
    }

    /// Records every packet the radio hears from now on (`meshport sim --heard-log`), whether
    /// or not a link is attached to take its LOG_RX_DATA push.
    public func recordHearings(_ record: @escaping @Sendable (SimHearing) -> Void) {
        hearings = record
    }

    /// A packet reaching the radio over the shared air (SharedAir.swift), heard at `at`.
    public func hear(_ packet: ReceivedPacket, at: Duration) {
        SimHandler.schedule(&state, ScheduledEvent(due: at, kind: .received(packet)))
        tick()
    }

    /// Delivers what is due by now. Pushes need a connected link; without one they are
    /// dropped as the firmware drops them, while queued messages stay queued (§10 #18).
    public func tick() {
        if deliverDue() { saveIfChanged() }
    }

    /// Runs the due events and writes their pushes; true when there were any.
    @discardableResult
    private func deliverDue() -> Bool {
        let pushes = SimHandler.advance(&state, to: clock.elapsed)
        if let hearings {
            for case let .push(.logRxData(packet)) in pushes {
                hearings(SimHearing(radio: state.publicKey, packet: packet, elapsed: clock.elapsed, pushed: sink != nil))
            }
        }
        if let sink {
            for p in pushes {
                if let bytes = encode(p) { sink(bytes) }
            }
        }
        return !pushes.isEmpty
    }

    /// What the radio transmitted since the last call, for the shared air to carry.
    public func takeAired() -> [AiredPacket] {
        defer { state.aired = [] }
        return state.aired
    }

    /// Schedules `message` to arrive `after` from now.
    public func deliver(_ message: IncomingMessage, after: Duration = .zero) {
        SimHandler.deliver(&state, message, at: clock.elapsed + after)
        tick()
    }

    /// When the next scheduled event is due, measured on the radio's clock.
    public var nextDue: Duration? { SimHandler.nextDue(state) }

    /// Runs scheduled events in real time until cancelled (for a radio on `SystemSimClock`).
    public func runTimers() async {
        repeat {
            tick()
        } while await clock.sleep(until: nextDue)
    }

    private func encode(_ frame: RadioFrame) -> [UInt8]? {
        do {
            return try frame.encode()
        } catch {
            encodeProblems.append("cannot encode \(frame.name): \(error)")
            return nil
        }
    }
}
