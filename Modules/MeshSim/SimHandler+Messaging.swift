import MeshCodec

extension SimHandler {
    /// SEND_TXT_MSG: SENT with the expected ACK and the firmware's suggested timeout; the
    /// recipient's ACK is scheduled after a per-hop latency when the recipient is a node of
    /// the mesh (a contact nobody simulates never answers).
    static func sendText(_ s: inout SimRadioState, _ m: SendTextMessage, now: Duration) -> [RadioFrame] {
        guard let recipient = s.contacts.contact(prefix: m.recipient) else { return [error(.notFound)] }
        guard m.textType == .plain || m.textType == .cliData else { return [error(.unsupportedCommand)] }
        let text = Array(m.text.utf8)
        // The firmware cannot build the packet, and says the table is full.
        guard text.count <= (m.attempt > 3 ? 158 : SendTextMessage.maxTextBytes) else { return [error(.tableFull)] }

        let flood = recipient.outPath.length.isNone
        let node = s.nodes[recipient.publicKey]
        let hops = flood ? (node?.hops ?? 0) : recipient.outPath.length.hopCount
        let airtime = Airtime.milliseconds(payloadBytes: Airtime.textPacketBytes(textBytes: text.count, pathBytes: flood ? 0 : recipient.outPath.bytes.count),
                                           radio: s.radio)
        let timeout = flood ? Airtime.floodTimeout(airtime: airtime) : Airtime.directTimeout(airtime: airtime, hops: hops)
        countSent(&s, flood: flood, airtime: airtime)

        // CLI data to repeaters expects no ACK (protocol.md §7.4 note 6).
        guard m.textType == .plain else { return [.response(.sent(Sent(flood: flood, ackCode: AckCode(0), suggestedTimeoutMs: timeout)))] }
        let ack = AckCode.expected(timestamp: m.timestamp, attempt: m.attempt, textType: m.textType, text: text, sender: s.publicKey)
        s.expectedAcks.append(ExpectedAck(code: ack, recipient: recipient.publicKey, sentAt: now))
        if s.expectedAcks.count > s.limits.expectedAckTableSize { s.expectedAcks.removeFirst() }
        if node != nil {
            // Out and back, each hop one packet's airtime plus the receiver's random rx delay.
            var trip = 0.0
            for _ in 0..<(2 * (hops + 1)) { trip += airtime + Double(Int.random(in: 20...120, using: &s.rng)) }
            schedule(&s, ScheduledEvent(due: now + .milliseconds(Int64(trip)), kind: .ackArrives(ack, from: recipient.publicKey, viaFlood: flood)))
        }
        return [.response(.sent(Sent(flood: flood, ackCode: ack, suggestedTimeoutMs: timeout)))]
    }

    /// SEND_CHANNEL_TXT_MSG answers OK, not SENT (protocol.md §11 #1). An empty slot is not
    /// an error: the firmware would encrypt with the all-zero key.
    static func sendChannelText(_ s: inout SimRadioState, _ m: SendChannelTextMessage, now: Duration) -> [RadioFrame] {
        guard m.textType == .plain else { return [error(.unsupportedCommand)] }
        guard Int(m.channelIndex) < s.channels.count else { return [error(.notFound)] }
        // "<name>: <text>", cut to 160 bytes on air as the firmware silently does.
        let onAir = min(Array("\(s.name): \(m.text)".utf8).count, SendChannelTextMessage.maxTotalBytes)
        countSent(&s, flood: true, airtime: Airtime.milliseconds(payloadBytes: 2 + 1 + 2 + (onAir + 5 + 15) / 16 * 16, radio: s.radio))
        return [ok]
    }

    private static func countSent(_ s: inout SimRadioState, flood: Bool, airtime: Double) {
        s.stats.sent += 1
        if flood { s.stats.sentFlood += 1 } else { s.stats.sentDirect += 1 }
        s.stats.txAirtimeMs += airtime
    }

    /// Queues `message` to arrive at `at`.
    public static func deliver(_ s: inout SimRadioState, _ message: IncomingMessage, at: Duration) {
        schedule(&s, ScheduledEvent(due: at, kind: .messageArrives(message)))
    }

    static func schedule(_ s: inout SimRadioState, _ event: ScheduledEvent) {
        // After every event due at the same time or earlier: equal times keep their order.
        let i = s.scheduled.firstIndex { $0.due > event.due } ?? s.scheduled.count
        s.scheduled.insert(event, at: i)
    }

    /// When the next scheduled event is due, if any.
    public static func nextDue(_ s: SimRadioState) -> Duration? { s.scheduled.first?.due }

    /// Runs every event due by `now`, in order: the pushes they cause.
    public static func advance(_ s: inout SimRadioState, to now: Duration) -> [RadioFrame] {
        var out: [RadioFrame] = []
        while let first = s.scheduled.first, first.due <= now {
            s.scheduled.removeFirst()
            switch first.kind {
            case let .ackArrives(code, from, viaFlood):
                out += ackArrived(&s, code, from: from, viaFlood: viaFlood, at: first.due)
            case let .messageArrives(message):
                out += messageArrived(&s, message, at: first.due)
            }
        }
        return out
    }

    private static func ackArrived(_ s: inout SimRadioState, _ code: AckCode, from key: PublicKey, viaFlood: Bool, at: Duration) -> [RadioFrame] {
        s.stats.received += 1
        if viaFlood { s.stats.receivedFlood += 1 } else { s.stats.receivedDirect += 1 }
        var out: [RadioFrame] = []
        // A flood DM is answered by a path-return carrying the ACK: later DMs go direct (§14).
        if viaFlood, let node = s.nodes[key] {
            let stamp = s.deviceTime(at: at)
            if s.contacts.update(key, { $0.outPath = node.path; $0.lastModified = stamp }) { out.append(.push(.pathUpdated(key))) }
        }
        // Only the first matching ACK is reported; the table forgets older sends.
        guard let i = s.expectedAcks.firstIndex(where: { $0.code == code }) else { return out }
        let sent = s.expectedAcks.remove(at: i)
        out.append(.push(.sendConfirmed(ackCode: code, roundTripMs: UInt32(truncatingIfNeeded: (at - sent.sentAt).milliseconds))))
        return out
    }

    private static func messageArrived(_ s: inout SimRadioState, _ message: IncomingMessage, at: Duration) -> [RadioFrame] {
        s.stats.received += 1
        let response: Response
        switch message {
        case let .direct(from, text, sentAt, snr):
            // A DM from a node that is not a contact cannot be decrypted and is lost (§7.2).
            guard let contact = s.contacts.contact(from) else { return [] }
            let hops = s.nodes[from]?.hops ?? 0
            let arrivedDirect = !contact.outPath.length.isNone
            if arrivedDirect { s.stats.receivedDirect += 1 } else { s.stats.receivedFlood += 1 }
            response = .contactMessage(ContactMessage(format: s.messageFormat, snrX4: snr, senderPrefix: from.prefix(),
                                                      pathLength: arrivedDirect ? .none : PathLength(hops: hops) ?? .none,
                                                      senderTimestamp: sentAt, text: text))
        case let .channel(index, sender, text, sentAt, hops, snr):
            guard Int(index) < s.channels.count, !s.channels[Int(index)].isEmpty else { return [] }
            s.stats.receivedFlood += 1
            response = .channelMessage(ChannelMessage(format: s.messageFormat, snrX4: snr, channelIndex: index,
                                                      pathLength: PathLength(hops: hops) ?? .none, senderTimestamp: sentAt, text: "\(sender): \(text)"))
        }
        s.stats.lastSNRx4 = {
            switch message {
            case let .direct(_, _, _, snr), let .channel(_, _, _, _, _, snr): snr
            }
        }()
        s.offlineQueue.push(response)
        return [.push(.messageWaiting)]
    }
}
