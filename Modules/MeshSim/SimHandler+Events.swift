import MeshCodec

/// The mesh's timeline: events scheduled by sends and scenarios, and what their arrival
/// does to the radio.
extension SimHandler {
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
            case let .replyArrives(from, data, viaFlood):
                out += replyArrived(&s, from: from, data: data, viaFlood: viaFlood, at: first.due)
            case let .discoveryArrives(from, tag, outPath, inPath):
                // Matched by tag; the contact's own path is left alone ("DON'T send reciprocal path").
                guard s.pending == .discovery(tag: tag) else { continue }
                s.pending = nil
                out.append(.push(.pathDiscoveryResponse(PathDiscoveryResponse(prefix: from.prefix(), outPath: outPath, inPath: inPath))))
            case let .advertArrives(from, timestamp):
                out += advertArrived(&s, from: from, timestamp: timestamp, at: first.due)
            case .chatter:
                chatter(&s, at: first.due)
            case let .traceArrives(trace):
                out += heardTrace(&s, trace)
                out.append(.push(.traceData(trace)))
            case let .heard(packet):
                out.append(.push(.logRxData(packet)))
            case let .overheard(run, n):
                out += overheard(&s, run, number: n, at: first.due)
            case let .received(packet):
                out += received(&s, packet, at: first.due)
            case let .readingsChange(battery, noise):
                if let battery { s.batteryMillivolts = battery }
                if let noise { s.noiseFloor = noise }
            }
        }
        return out
    }

    /// A reply to a request; when the request went flood it came as a path-return, which
    /// teaches the radio the path first.
    private static func replyArrived(_ s: inout SimRadioState, from key: PublicKey, data: [UInt8], viaFlood: Bool, at: Duration) -> [RadioFrame] {
        s.stats.received += 1
        if viaFlood { s.stats.receivedFlood += 1 } else { s.stats.receivedDirect += 1 }
        var out: [RadioFrame] = []
        if let node = s.nodes[key] {
            let packet = viaFlood ? AirPackets.pathReturn(&s, from: node, extraType: .response, extra: data, path: arrivalPath(node))
                                  : AirPackets.response(&s, from: key, data: data)
            out += arrives(&s, packet, lastHop: lastHop(s, node), at: at)
        }
        return out + (viaFlood ? pathReturned(&s, from: key, at: at) : []) + contactResponse(&s, from: key, data: data)
    }

    private static func pathReturned(_ s: inout SimRadioState, from key: PublicKey, at: Duration) -> [RadioFrame] {
        guard let node = s.nodes[key] else { return [] }
        let stamp = s.deviceTime(at: at)
        return s.contacts.update(key, { $0.outPath = node.path; $0.lastModified = stamp }) ? [.push(.pathUpdated(key))] : []
    }

    private static func ackArrived(_ s: inout SimRadioState, _ code: AckCode, from key: PublicKey, viaFlood: Bool, at: Duration) -> [RadioFrame] {
        s.stats.received += 1
        if viaFlood { s.stats.receivedFlood += 1 } else { s.stats.receivedDirect += 1 }
        var out: [RadioFrame] = []
        if let node = s.nodes[key] {
            let packet = viaFlood ? AirPackets.pathReturn(&s, from: node, extraType: .ack, extra: code.bytes, path: arrivalPath(node)) : AirPackets.ack(code)
            out += arrives(&s, packet, lastHop: lastHop(s, node), at: at)
        }
        // A flood DM is answered by a path-return carrying the ACK: later DMs go direct (§11).
        if viaFlood { out += pathReturned(&s, from: key, at: at) }
        // Only the first matching ACK is reported; the table forgets older sends.
        guard let i = s.expectedAcks.firstIndex(where: { $0.code == code }) else { return out }
        let sent = s.expectedAcks.remove(at: i)
        out.append(.push(.sendConfirmed(ackCode: code, roundTripMs: UInt32(truncatingIfNeeded: (at - sent.sentAt).milliseconds))))
        return out
    }

    private static func messageArrived(_ s: inout SimRadioState, _ message: IncomingMessage, at: Duration) -> [RadioFrame] {
        s.stats.received += 1
        // Heard before it is handled, whether or not the radio can use it.
        let air = arrival(&s, message, at: at)
        let response: Response
        switch message {
        case let .direct(from, text, sentAt, snr):
            // A DM from a node that is not a contact cannot be decrypted and is lost (§7.2).
            guard let contact = s.contacts.contact(from) else { return air }
            let hops = s.nodes[from]?.hops ?? 0
            let arrivedDirect = !contact.outPath.length.isNone
            if arrivedDirect { s.stats.receivedDirect += 1 } else { s.stats.receivedFlood += 1 }
            response = .contactMessage(ContactMessage(format: s.messageFormat, snrX4: snr, senderPrefix: from.prefix(),
                                                      pathLength: arrivedDirect ? .none : PathLength(hops: hops) ?? .none,
                                                      senderTimestamp: sentAt, text: text))
        case let .roomPost(room, author, text, postedAt, snr):
            // The radio moves the room's sync point and the contact's lastmod, as onPeerDataRecv does.
            let stamp = s.deviceTime(at: at)
            guard let contact = s.contacts.contact(room), s.contacts.update(room, { $0.lastModified = stamp }) else { return air }
            s.roomSyncSince[room] = max(s.roomSyncSince[room] ?? 0, postedAt)
            let arrivedDirect = !contact.outPath.length.isNone
            if arrivedDirect { s.stats.receivedDirect += 1 } else { s.stats.receivedFlood += 1 }
            let hops = PathLength(hops: s.nodes[room]?.hops ?? 0) ?? .none
            response = .contactMessage(ContactMessage(format: s.messageFormat, snrX4: snr, senderPrefix: room.prefix(), pathLength: arrivedDirect ? .none : hops,
                                                      textType: .signedPlain, senderTimestamp: postedAt, authorPrefix: author.prefix(4), text: text))
        case let .channel(index, sender, text, sentAt, hops, snr):
            guard Int(index) < s.channels.count, !s.channels[Int(index)].isEmpty else { return air }
            s.stats.receivedFlood += 1
            response = .channelMessage(ChannelMessage(format: s.messageFormat, snrX4: snr, channelIndex: index,
                                                      pathLength: PathLength(hops: hops) ?? .none, senderTimestamp: sentAt, text: "\(sender): \(text)"))
        }
        s.stats.lastSNRx4 = {
            switch message {
            case let .direct(_, _, _, snr), let .channel(_, _, _, _, _, snr), let .roomPost(_, _, _, _, snr): snr
            }
        }()
        s.offlineQueue.push(response)
        return air + [.push(.messageWaiting)]
    }
}
