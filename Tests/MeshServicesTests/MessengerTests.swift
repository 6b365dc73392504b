import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// Messenger against MeshSim in-process (its clock sped up 20×, the policy's waits scaled to
/// match) and a real SQLite store: DMs saved before their frame, retried direct then flood,
/// delivered by any attempt's ACK or failed with the reason; channel messages and their echoes.
@Suite(.timeLimit(.minutes(1))) struct MessengerTests {
    /// Each command frame the radio got, decoded, in order.
    private func commands(_ rig: MessagingRig) -> Shared<[Command]> {
        let seen = Shared<[Command]>([])
        rig.spy.watch { frame in
            do {
                let command = try Command(decoding: frame)
                seen.with { $0.append(command) }
            } catch {
                Issue.record("undecodable command: \(error)")
            }
        }
        return seen
    }

    @Test func aDMIsSavedPendingBeforeItsFrameThenSentThenDeliveredWithItsRoundTrip() async throws {
        let rig = try await MessagingRig()
        let ann = await rig.key("Ann")
        // What the store holds at the moment SEND_TXT_MSG goes to the radio.
        let atFrame = Shared<[StoredMessage]>([])
        let (store, radio) = (rig.store, rig.radio)
        rig.spy.watch { frame in
            guard frame.first == CommandCode.sendTextMessage.rawValue else { return }
            do {
                let messages = try store.reader.timeline(radio, .direct(ann)).messages
                atFrame.with { $0 += messages }
            } catch {
                Issue.record("reading the store at SEND_TXT_MSG: \(error)")
            }
        }
        let events = rig.context.events.subscribe()
        let report = try await rig.messenger.send("hello Ann", to: ann)

        let seen = atFrame.value
        #expect(seen.count == 1)
        #expect(seen.first?.status == .pending && seen.first?.text == "hello Ann" && seen.first?.ackCode == nil)
        #expect(seen.first?.senderTimestamp == report.message.senderTimestamp)

        guard case let .delivered(attempt, roundTrip) = report.outcome else { Issue.record("not delivered: \(report.outcome)"); return }
        #expect(attempt == 1 && roundTrip > 0)
        let first = try #require(report.attempts.first)
        #expect(first.ackCode == AckCode.expected(timestamp: report.message.senderTimestamp, attempt: 0, text: Array("hello Ann".utf8),
                                                  sender: rig.selfInfo.publicKey))
        let stored = try #require(try rig.stored(report.message.id))
        #expect(stored.status == .delivered && stored.roundTripMs == Int(roundTrip) && stored.ackCode == first.ackCode && stored.failureReason == nil)

        // The same story on the event stream; east passing our packet on is a heard repeat.
        let id = report.message.id
        let trail = await MessagingRig.collect(events) { seen in
            let mine = seen.compactMap(\.status).filter { $0.id == id }
            return mine.contains { $0.status == .delivered } && mine.contains { $0.heardRepeats >= 1 }
        }
        let mine = trail.compactMap(\.status).filter { $0.id == id }
        // Heard repeats emit the message again with its status unchanged.
        let statuses = mine.map(\.status).reduce(into: [MessageStatus]()) { if $0.last != $1 { $0.append($1) } }
        #expect(statuses == [.pending, .sent, .delivered])
        #expect(mine.contains { $0.heardRepeats >= 1 }, "east's forward of our DM counts as a heard repeat")
        #expect(try rig.stored(id)?.heardRepeats ?? 0 >= 1)
    }

    @Test func unansweredDirectAttemptsFallBackToFloodAfterOneResetPath() async throws {
        let rig = try await MessagingRig()
        let bob = await rig.key("Bob")
        let seen = commands(rig)
        let report = try await rig.messenger.send("are you there?", to: bob)

        guard case .delivered(attempt: 3, _) = report.outcome else { Issue.record("not delivered by attempt 3: \(report.outcome)"); return }
        #expect(report.attempts.map(\.number) == [1, 2, 3] && report.attempts.map(\.flood) == [false, false, true] && report.pathReset)
        let ts = report.message.senderTimestamp
        for a in report.attempts {
            #expect(a.ackCode == AckCode.expected(timestamp: ts, attempt: UInt8(a.number - 1), text: Array("are you there?".utf8),
                                                  sender: rig.selfInfo.publicKey))
        }
        #expect(Set(report.attempts.map(\.ackCode)).count == 3)
        // On the link: two sends, one RESET_PATH, the flood send; one timestamp throughout.
        let sent = seen.value
        let steps: [String] = sent.map { command in
            switch command {
            case let .sendTextMessage(m): m.timestamp == ts && m.recipient == bob.prefix() ? "send \(m.attempt)" : "other send"
            case let .resetPath(key): key == bob ? "reset" : "other reset"
            default: command.name
            }
        }
        #expect(steps == ["send 0", "send 1", "reset", "send 2"])
        let stored = try #require(try rig.stored(report.message.id))
        #expect(stored.status == .delivered && stored.attempt == 3 && stored.ackCode == report.attempts[2].ackCode)
    }

    @Test func aLateAckOfAnEarlierAttemptCountsAsDelivery() async throws {
        let rig = try await MessagingRig(policy: RetryPolicy(maxAttempts: 6, timeoutScale: 1 / Double(MessagingRig.speed)))
        let cy = await rig.key("Cy")
        // Cy's ACKs take 10 minutes. When attempt 2 goes out, the mesh's clock moves to just
        // after attempt 1's ACK is due: it arrives while attempt 2 waits, however slow the machine.
        let firstSent = Shared<Duration?>(nil)
        let clock = rig.clock
        rig.spy.watch { frame in
            let command: Command
            do { command = try Command(decoding: frame) } catch { return }   // the test only looks at sends
            guard case let .sendTextMessage(m) = command else { return }
            if m.attempt == 0 { firstSent.with { $0 = clock.elapsed } }
            if m.attempt == 1, let t = firstSent.value { clock.jump(to: t + .seconds(600) + .milliseconds(1)) }
        }
        let report = try await rig.messenger.send("slow one", to: cy)
        guard case .delivered(attempt: 1, _) = report.outcome else { Issue.record("not delivered by attempt 1: \(report.outcome)"); return }
        #expect(report.attempts.count >= 2)
        let stored = try #require(try rig.stored(report.message.id))
        #expect(stored.status == .delivered && stored.ackCode == report.attempts[0].ackCode)
    }

    @Test func exhaustedAttemptsLeaveTheMessageFailedWithTheReason() async throws {
        let rig = try await MessagingRig()
        // A contact with a path (via east) that nobody simulates: nothing ever answers.
        let ghost = PublicKey(Array(repeating: 0x5A, count: 32))!
        let east = await rig.key("east")
        var contact = Contact(publicKey: ghost, type: .chat, name: "Ghost", lastModified: 1_790_000_000)
        contact.outPath = Path(length: PathLength(hops: 1)!, bytes: [east.bytes[0]])
        try await rig.session.expectOK(.addUpdateContact(AddUpdateContact(contact: contact)))
        try await rig.store.writer.saveContacts(rig.radio, [contact])

        let report = try await rig.messenger.send("anyone?", to: ghost)
        let reason = "no ACK from \(ghost.prefix().hex) after 3 attempts (2 direct, 1 flood)"
        #expect(report.outcome == .failed(.noAck(contact: ghost.prefix(), attempts: 3, direct: 2, flood: 1)))
        if case let .failed(error) = report.outcome { #expect(error.description == reason) }
        let stored = try #require(try rig.stored(report.message.id))
        #expect(stored.status == .failed && stored.failureReason == reason && stored.attempt == 3)
        #expect(report.message.status == .failed)
    }

    @Test func textLimitsAreTypedErrorsAndSaveNothing() async throws {
        let rig = try await MessagingRig()
        let ann = await rig.key("Ann")
        let conversation = "contact \(ann.prefix().hex)"
        let long = String(repeating: "é", count: 80) + "!"   // 161 bytes of UTF-8
        await #expect(throws: MessagingError.textTooLong(conversation: conversation, bytes: 161, limit: 160)) {
            try await rig.messenger.send(long, to: ann)
        }
        await #expect(throws: MessagingError.emptyText(conversation: conversation)) { try await rig.messenger.send("", to: ann) }
        // More than 4 attempts: the fifth carries its number after the text, leaving 158 bytes.
        let patient = Messenger(context: rig.context, policy: RetryPolicy(maxAttempts: 5))
        await #expect(throws: MessagingError.textTooLong(conversation: conversation, bytes: 159, limit: 158)) {
            try await patient.send(String(repeating: "x", count: 159), to: ann)
        }

        let prefix = "\(rig.selfInfo.name): ".utf8.count
        let fits = String(repeating: "c", count: 160 - prefix)
        let error = MessagingError.channelTextTooLong(channel: 0, prefixBytes: prefix, textBytes: fits.utf8.count + 1, limit: 160)
        await #expect(throws: error) { try await rig.messenger.sendChannel(fits + "c", channel: 0) }
        #expect(error.description.contains("\(prefix + fits.utf8.count + 1) bytes") && error.description.contains("may have \(160 - prefix) bytes"))
        #expect(try rig.messageCount() == 0, "nothing saved")

        // Exactly 160 bytes with the prefix is fine.
        #expect(try await rig.messenger.sendChannel(fits, channel: 0).status == .sent)
        #expect(try rig.messageCount() == 1)
    }

    @Test func aChannelMessageIsSavedSentAndItsEchoesCountAsHeardRepeats() async throws {
        let rig = try await MessagingRig()
        let events = rig.context.events.subscribe()
        let seen = commands(rig)
        let sent = try await rig.messenger.sendChannel("hello mesh", channel: 0)
        #expect(sent.status == .sent && sent.text == "hello mesh" && sent.conversation == .channel(0) && sent.direction == .outgoing)
        let ts = sent.senderTimestamp
        #expect(seen.value == [.sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: ts, text: "hello mesh"))])

        // East and west each rebroadcast it once.
        let id = sent.id
        let twice = await MessagingRig.first(events) { $0.status?.id == id && $0.status?.heardRepeats == 2 }
        #expect(twice != nil)
        #expect(try rig.stored(id)?.heardRepeats == 2)
    }

    @Test func aChannelSecretComesFromTheRadioWhenTheStoreLacksItAndAFreeSlotIsRefused() async throws {
        let rig = try await MessagingRig()
        let secret = ChannelSecret.hashtag("#meshport")
        try await rig.session.expectOK(.setChannel(ChannelInfo(index: 2, name: "#meshport", secret: secret)))
        let events = rig.context.events.subscribe()
        let sent = try await rig.messenger.sendChannel("tagged", channel: 2)
        let id = sent.id
        #expect(await MessagingRig.first(events) { $0.status?.id == id && $0.status?.heardRepeats == 2 } != nil)

        await #expect(throws: MessagingError.emptyChannel(channel: 5, url: "sim://radio")) { try await rig.messenger.sendChannel("void", channel: 5) }
        #expect(try rig.messageCount() == 1)
    }

    @Test func withoutWaitingItReturnsAfterSentAndTheAckIsStillRecorded() async throws {
        let rig = try await MessagingRig()
        let ann = await rig.key("Ann")
        let report = try await rig.messenger.send("fire and forget", to: ann, wait: false)
        #expect(report.outcome == .inFlight && report.message.status == .sent && report.attempts.count == 1)
        let final = try #require(await rig.messenger.outcome(of: report.message.id))
        guard case .delivered = final.outcome else { Issue.record("not delivered: \(final.outcome)"); return }
        #expect(try rig.stored(report.message.id)?.status == .delivered)
    }

    @Test func stoppingEndsBackgroundTrackingAndSaysSo() async throws {
        let rig = try await MessagingRig()
        let cy = await rig.key("Cy")   // slow to ACK: still waiting when stopped
        let report = try await rig.messenger.send("never mind", to: cy, wait: false)
        await rig.messenger.stop()
        let final = try #require(await rig.messenger.outcome(of: report.message.id))
        guard case let .failed(error) = final.outcome, case .cancelled = error else { Issue.record("not cancelled: \(final.outcome)"); return }
        let stored = try #require(try rig.stored(report.message.id))
        #expect(stored.status == .failed && stored.failureReason == error.description && final.attempts.count == 1)
    }

    @Test func aRefusedSendLeavesTheMessageFailedNamingTheCommand() async throws {
        let rig = try await MessagingRig()
        let dee = await rig.key("Dee")
        // The store still knows Dee; the radio no longer does.
        try await rig.session.expectOK(.removeContact(dee))
        let step = "attempt 1 of the message to \(dee.prefix().hex)"
        let expected = MessagingError.command(step: step, .refused(command: "CMD_SEND_TXT_MSG", url: "sim://radio", .notFound))
        await #expect(throws: expected) { try await rig.messenger.send("still there?", to: dee) }
        let stored = try #require(try rig.store.reader.timeline(rig.radio, .direct(dee)).messages.first)
        #expect(stored.status == .failed && stored.failureReason == expected.description && stored.text == "still there?")
    }

}
