import MeshCodec
import MeshStore

/// One DM on its way: what every attempt repeats (the same timestamp and text) and what
/// the attempts so far did.
struct DirectRun: Sendable {
    var message: StoredMessage
    let contact: PublicKey
    let text: String
    let timestamp: UInt32
    var attempts: [SendAttempt] = []
    var pathReset = false

    var id: Int64 { message.id }
    var who: String { contact.prefix().hex }

    func report(_ outcome: DeliveryReport.Outcome) -> DeliveryReport {
        DeliveryReport(message: message, attempts: attempts, pathReset: pathReset, outcome: outcome)
    }

    var noAck: MessagingError {
        let flood = attempts.filter(\.flood).count
        return .noAck(contact: contact.prefix(), attempts: attempts.count, direct: attempts.count - flood, flood: flood)
    }
}

extension Messenger {
    /// Sends `text` to `contact` (SEND_TXT_MSG) and, with `wait`, follows it until it is
    /// delivered or every attempt went unanswered: the report then says which. Without
    /// `wait` it returns after the first SENT (outcome `.inFlight`) and tracking goes on
    /// in the background (`outcome(of:)` waits for it); ACKs are recorded either way.
    ///
    /// The text is checked first (not empty, at most `policy.maxTextBytes` bytes), then the
    /// message is saved `pending`, the ACK listener subscribed, and only then the frame sent.
    /// A failed step throws, leaving the message `failed` with the error as its reason.
    public func send(_ text: String, to contact: PublicKey, wait: Bool = true) async throws(MessagingError) -> DeliveryReport {
        try TextLimits.checkDirect(text, to: contact, limit: policy.maxTextBytes)
        let timestamp = nextTimestamp()
        let pending = try await save(OutgoingMessage(conversation: .direct(contact), text: text, senderTimestamp: timestamp),
                                     step: "saving the message to \(contact.prefix().hex)")
        var run = DirectRun(message: pending, contact: contact, text: text, timestamp: timestamp)
        startTracking(run.id, matcher: .direct(destinationHash: contact.bytes[0], sourceHash: context.selfInfo.publicKey.bytes[0]))
        try await attempt(&run)
        guard wait else {
            let started = run
            background[run.id] = Task { await self.finishInBackground(started) }
            return run.report(.inFlight)
        }
        return try await finish(&run)
    }

    /// Waits for an ACK after each attempt and sends the next until one comes or the
    /// attempts run out.
    func finish(_ run: inout DirectRun) async throws(MessagingError) -> DeliveryReport {
        while let last = run.attempts.last {
            if let c = await confirmation(of: run.id, within: policy.ackWait(suggestedMs: last.suggestedTimeoutMs)) {
                return try await delivered(&run, c)
            }
            try await checkGoingOn(run, step: "waiting for the ACK of attempt \(last.number) to \(run.who)")
            guard run.attempts.count < policy.maxAttempts else { break }
            // An ACK that comes during the pause still counts.
            if let c = await confirmation(of: run.id, within: policy.pause(after: last.number)) {
                return try await delivered(&run, c)
            }
            try await checkGoingOn(run, step: "the pause after attempt \(last.number) to \(run.who)")
            try await attempt(&run)
        }
        // One that came between the last wait and now is not lost (no suspension after this check).
        if let c = tracked[run.id]?.confirmation { return try await delivered(&run, c) }
        let failure = await fail(run.id, run.noAck)
        run.message = current(run.id, fallback: run.message)
        return run.report(.failed(failure))
    }

    /// A cancelled task, or `stop()`, ends the run: the message is marked failed.
    private func checkGoingOn(_ run: DirectRun, step: String) async throws(MessagingError) {
        guard Task.isCancelled || tracked[run.id] == nil else { return }
        throw await fail(run.id, .cancelled(step: step))
    }

    /// The next attempt: RESET_PATH once before the first flood attempt, then SEND_TXT_MSG
    /// with the attempt's number, and `sent` with its ACK code once the radio answers.
    func attempt(_ run: inout DirectRun) async throws(MessagingError) {
        let number = run.attempts.count + 1
        if policy.floods(attempt: number), !run.pathReset {
            do {
                try await session.expectOK(.resetPath(run.contact))
            } catch {
                throw await fail(run.id, .command("RESET_PATH before attempt \(number) to \(run.who)", error))
            }
            run.pathReset = true
        }
        let command = SendTextMessage(attempt: UInt8(clamping: number - 1), timestamp: run.timestamp, recipient: run.contact.prefix(), text: run.text)
        let sent: Sent
        do {
            sent = try await session.expect(.sendTextMessage(command)) { if case let .sent(s) = $0 { s } else { nil } }
        } catch {
            throw await fail(run.id, .command("attempt \(number) of the message to \(run.who)", error))
        }
        expect(sent.ackCode, attempt: number, for: run.id)
        run.attempts.append(SendAttempt(number: number, ackCode: sent.ackCode, flood: sent.flood, suggestedTimeoutMs: sent.suggestedTimeoutMs))
        run.message = try await update(run.id, .sent, ackCode: sent.ackCode, attempt: number, step: "recording attempt \(number) to \(run.who) as sent")
    }

    private func delivered(_ run: inout DirectRun, _ c: Confirmation) async throws(MessagingError) -> DeliveryReport {
        settle(run.id, failed: false)
        run.message = try await update(run.id, .delivered, ackCode: c.code, roundTripMs: c.roundTripMs,
                                       step: "recording the delivery of the message to \(run.who)")
        return run.report(.delivered(attempt: c.attempt, roundTripMs: c.roundTripMs))
    }

    private func finishInBackground(_ started: DirectRun) async -> DeliveryReport {
        var run = started
        let report: DeliveryReport
        do {
            report = try await finish(&run)
        } catch {
            problem("the message to \(run.who) failed: \(error)")
            run.message = current(run.id, fallback: run.message)
            report = run.report(.failed(error))
        }
        remember(report)
        return report
    }
}
