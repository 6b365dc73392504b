import MeshCodec

/// A packet the mesh sends later on the shared air.
struct AirEvent: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// Background chatter on the Public channel; each one schedules the next.
        case chatter
        /// A node's flood advert (its own clock in `timestamp`).
        case advert(PublicKey, timestamp: UInt32)
        /// A channel text, "sender: text", flooded from the node named `sender` (or from the
        /// middle of the mesh when no node has that name).
        case channel(ChannelSecret, sender: String, text: String, sentAt: UInt32)
        /// Packet `number` of a scenario's busy air; each schedules the next.
        case overheard(OverheardRun, number: Int)
    }

    var due: Duration
    var kind: Kind
}

/// What the mesh says on the shared air: the same traffic a single radio hears (Chatter.swift,
/// Overheard.swift, adverts, a scenario's channel events), sent once from its sender's place.
extension SimAir {
    /// Every node adverts once in the first half minute and again every half hour, so each
    /// gateway learns the nodes in its range.
    static let advertEvery = Duration.seconds(1800)

    mutating func send(_ event: AirEvent, at: Duration) -> [AirHearing] {
        switch event.kind {
        case .chatter:
            schedule(AirEvent(due: at + .milliseconds(Int64.random(in: 4000...10_000, using: &rng)), kind: .chatter))
            guard !speakers.isEmpty else { return [] }
            let speaker = speakers[Int.random(in: 0..<speakers.count, using: &rng)]
            let line = SimHandler.chatterLines[Int.random(in: 0..<SimHandler.chatterLines.count, using: &rng)]
            return channelText(.publicChannel, from: speaker, line: "\(speaker.name): \(line)", sentAt: deviceTime(at: at), at: at)
        case let .advert(key, timestamp):
            guard let node = nodes[key] else { return [] }
            schedule(AirEvent(due: at + Self.advertEvery, kind: .advert(key, timestamp: timestamp &+ UInt32(Self.advertEvery.components.seconds))))
            let packet = AirPackets.advert(SimHandler.advertPacket(node, timestamp: timestamp), route: .flood, path: AirPackets.emptyPath)
            return transmit(packet, from: node, at: at)
        case let .channel(secret, sender, text, sentAt):
            let node = nodes.values.filter { $0.name == sender }.min { $0.publicKey.bytes.lexicographicallyPrecedes($1.publicKey.bytes) }
            return channelText(secret, from: node, line: "\(sender): \(text)", sentAt: sentAt, at: at)
        case let .overheard(run, n):
            if run.count.map({ n + 1 < $0 }) ?? true {
                schedule(AirEvent(due: run.start + run.every * (n + 1), kind: .overheard(run, number: n + 1)))
            }
            let speaker = speakers.isEmpty ? nil : speakers[Int.random(in: 0..<speakers.count, using: &rng)]
            let line = SimHandler.chatterLines[Int.random(in: 0..<SimHandler.chatterLines.count, using: &rng)]
            return channelText(SimHandler.overheardChannel, from: speaker, line: "\(speaker?.name ?? "Stranger"): \(line) (\(n + 1))",
                               sentAt: deviceTime(at: at), at: at)
        }
    }

    private mutating func channelText(_ secret: ChannelSecret, from node: SimNode?, line: String, sentAt: UInt32, at: Duration) -> [AirHearing] {
        let bytes = Array(Array(line.utf8).prefix(SendChannelTextMessage.maxTotalBytes))
        guard let packet = AirPackets.groupText(secret: secret, timestamp: sentAt, line: bytes, path: AirPackets.emptyPath) else {
            problems.append("could not seal a channel text of \(node?.name ?? "a stranger")")
            return []
        }
        return transmit(packet, from: node, at: at)
    }
}
