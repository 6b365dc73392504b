import MeshCodec

/// A scenario's busy air (Scenario+Overheard.swift): packet `n` is due at `start + n * every`,
/// so the rate holds however late the timers run.
struct OverheardRun: Hashable, Sendable {
    var start: Duration
    var every: Duration
    var count: Int?
}

extension SimHandler {
    /// The channel the overheard packets go out on; the radio has not joined it.
    static let overheardChannel = ChannelSecret.hashtag("#meshsim-busy-air")

    static func scheduleOverheard(_ s: inout SimRadioState, _ run: OverheardRun, number n: Int) {
        if let count = run.count, n >= count { return }
        schedule(&s, ScheduledEvent(due: run.start + run.every * n, kind: .overheard(run, number: n)))
    }

    /// Packet `n`: a node of the mesh (or a stranger, in a mesh without chat nodes) says a
    /// numbered line, flood, heard from its last hop once (its echoes are left out, so the
    /// rate is what the radio hears). One LOG_RX_DATA push and nothing else, as the firmware
    /// does for a channel it cannot decrypt.
    static func overheard(_ s: inout SimRadioState, _ run: OverheardRun, number n: Int, at: Duration) -> [RadioFrame] {
        scheduleOverheard(&s, run, number: n + 1)
        let speakers = s.nodes.values.filter { $0.type == .chat }.sorted { $0.publicKey.bytes.lexicographicallyPrecedes($1.publicKey.bytes) }
        let speaker = speakers.isEmpty ? nil : speakers[Int.random(in: 0..<speakers.count, using: &s.airRNG)]
        let name = speaker?.name ?? "Stranger"
        let line = chatterLines[Int.random(in: 0..<chatterLines.count, using: &s.airRNG)]
        let text = Array(Array("\(name): \(line) (\(n + 1))".utf8).prefix(SendChannelTextMessage.maxTotalBytes))
        let path = speaker.map(arrivalPath) ?? AirPackets.emptyPath
        let packet = AirPackets.groupText(secret: overheardChannel, timestamp: s.deviceTime(at: at), line: text, path: path)
        let from = speaker.map { lastHop(s, $0) } ?? Array(SHA256.hash(Array(name.utf8)).prefix(3))
        return heard(&s, packet, from: from)
    }
}
