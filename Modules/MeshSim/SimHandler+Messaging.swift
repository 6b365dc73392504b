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

        // CLI data to repeaters expects no ACK (Docs/protocol.md §7.4 note 6).
        guard m.textType == .plain else { return [.response(.sent(Sent(flood: flood, ackCode: AckCode(0), suggestedTimeoutMs: timeout)))] }
        let ack = AckCode.expected(timestamp: m.timestamp, attempt: m.attempt, textType: m.textType, text: text, sender: s.publicKey)
        s.expectedAcks.append(ExpectedAck(code: ack, recipient: recipient.publicKey, sentAt: now))
        if s.expectedAcks.count > s.limits.expectedAckTableSize { s.expectedAcks.removeFirst() }
        // Attempts past 3 hide their number after the text's terminator.
        let content = TextContent(timestamp: m.timestamp, attempt: m.attempt, textType: m.textType, text: m.attempt > 3 ? text + [0, m.attempt] : text)
        transmitted(&s, AirPackets.text(&s, peer: recipient.publicKey, fromRadio: true, content: content, route: flood ? .flood : .direct,
                                        path: flood ? ownFloodPath(s) : recipient.outPath), at: now)
        // Out and back, each hop one packet's airtime plus the receiver's random rx delay.
        if let node, flood || !node.dropsDirect, !s.textsSeenByNodes.contains(ack), SimServerLogic.survives(&s, hops: hops),
           SimServerLogic.survives(&s, hops: hops) {
            s.textsSeenByNodes.append(ack)
            if s.textsSeenByNodes.count > 128 { s.textsSeenByNodes.removeFirst() }
            let trip = roundTrip(&s, hops: hops, outMs: airtime, backMs: airtime, serverDelayMs: 0) + node.ackDelay
            schedule(&s, ScheduledEvent(due: now + trip, kind: .ackArrives(ack, from: recipient.publicKey, viaFlood: flood)))
        }
        return [.response(.sent(Sent(flood: flood, ackCode: ack, suggestedTimeoutMs: timeout)))]
    }

    /// SEND_CHANNEL_TXT_MSG answers OK, not SENT (Docs/protocol.md §10 #1). An empty slot is not
    /// an error: the firmware would encrypt with the all-zero key.
    static func sendChannelText(_ s: inout SimRadioState, _ m: SendChannelTextMessage, now: Duration) -> [RadioFrame] {
        guard m.textType == .plain else { return [error(.unsupportedCommand)] }
        guard Int(m.channelIndex) < s.channels.count else { return [error(.notFound)] }
        // "<name>: <text>", cut to 160 bytes on air as the firmware silently does.
        let line = Array(Array("\(s.name): \(m.text)".utf8).prefix(SendChannelTextMessage.maxTotalBytes))
        countSent(&s, flood: true, airtime: Airtime.milliseconds(payloadBytes: 2 + 1 + 2 + (line.count + 5 + 15) / 16 * 16, radio: s.radio))
        transmitted(&s, AirPackets.groupText(secret: s.channels[Int(m.channelIndex)].secret, timestamp: m.timestamp, line: line, path: ownFloodPath(s)),
                    at: now)
        return [ok]
    }

    static func countSent(_ s: inout SimRadioState, flood: Bool, airtime: Double) {
        s.stats.sent += 1
        if flood { s.stats.sentFlood += 1 } else { s.stats.sentDirect += 1 }
        s.stats.txAirtimeMs += airtime
    }
}
