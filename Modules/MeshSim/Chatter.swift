import MeshCodec

/// Background traffic on the Public channel: a random companion says something every 4-10
/// seconds, for as long as the simulation runs (the offline queue drops the oldest channel
/// messages when nobody reads them, as the firmware's does).
extension SimHandler {
    static let chatterLines = [
        "morning all", "anyone near the harbour?", "testing 1 2 3", "nice weather for range tests", "new antenna is up",
        "hearing the north repeater fine", "on my way home", "signal report please", "rain later, stay dry", "who's on tonight?",
        "battery at 80%", "copy that", "heading to the market", "that last advert came through twice", "73",
    ]

    static func startChatter(_ s: inout SimRadioState, at: Duration) {
        schedule(&s, ScheduledEvent(due: at, kind: .chatter))
    }

    static func chatter(_ s: inout SimRadioState, at: Duration) {
        // Key order, so the pick follows from the seed: bytes compare as their lower-case hex does.
        let speakers = s.nodes.values.filter { $0.type == .chat }.map(\.publicKey).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        guard let key = speakers.randomElement(using: &s.rng), let speaker = s.nodes[key], let line = chatterLines.randomElement(using: &s.rng) else { return }
        deliver(&s, .channel(index: 0, senderName: speaker.name, text: line, sentAt: s.deviceTime(at: at), hops: speaker.hops), at: at)
        startChatter(&s, at: at + .milliseconds(Int64.random(in: 4000...10_000, using: &s.rng)))
    }
}
