import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshTransport
import Synchronization
import Testing

/// RadioSession against MeshSim in the same process: initialization in protocol order,
/// one command in flight, typed errors naming the command and the link.
@Suite(.timeLimit(.minutes(1))) struct RadioSessionTests {
    static let now: UInt32 = 1_790_000_000

    private func session(_ state: SimRadioState = DefaultMesh.state(seed: 8)) throws -> (RadioSession, SimRadio) {
        let radio = SimRadio(state: state, clock: ManualSimClock())
        return (RadioSession(transport: try SimTransport(radio: radio), clientName: "session-test", commandTimeout: inProcessCommandTimeout), radio)
    }

    @Test func connectInitializesInProtocolOrder() async throws {
        let (session, radio) = try session()
        let queued = await radio.state.offlineQueue.count
        let snapshot = try await session.connect(now: { Self.now })
        #expect(await session.state == .ready)
        let state = await radio.state
        #expect(snapshot.selfInfo.publicKey == state.publicKey && snapshot.deviceInfo.protocolVersion >= 3)
        #expect(snapshot.contacts.count == DefaultMesh.nodeCount && snapshot.contactsWatermark > 0)
        #expect(snapshot.channels.count == 8 && snapshot.channels[0].name == ChannelSecret.publicChannelName)
        #expect(queued > 0 && snapshot.messages.count == queued && state.offlineQueue.isEmpty)
        // The simulated radio starts at its RTC-less boot time, years behind: the session sets it.
        #expect(snapshot.clockSet && snapshot.clock == Self.now && state.deviceTime(at: .zero) == Self.now)
        #expect(state.appTargetVersion == 3)
    }

    @Test func theClockIsNeverSetBackwardsOrForASmallDrift() async throws {
        let state = DefaultMesh.state(seed: 8)
        for local in [Self.now - 3600, Self.now + 60] {
            let (session, radio) = try session(state)
            _ = await radio.handle(.setDeviceTime(Self.now))
            let snapshot = try await session.connect(now: { local })
            #expect(!snapshot.clockSet && snapshot.clock == Self.now)
            #expect(await radio.state.deviceTime(at: .zero) == Self.now)
        }
    }

    @Test func incrementalContactSyncStartsAtTheWatermark() async throws {
        let (session, radio) = try session()
        let first = try await session.connect(now: { Self.now })
        // Only the contacts of the watermark's own second come again (see syncContacts).
        let atWatermark = first.contacts.filter { $0.lastModified == first.contactsWatermark }.map(\.publicKey)
        #expect(try await session.syncContacts(since: first.contactsWatermark).contacts.map(\.publicKey) == atWatermark)
        // An advert arrives: only that contact is newer than the watermark.
        let newcomer = try #require(await radio.state.nodes.values.first { n in first.contacts.allSatisfy { $0.publicKey != n.publicKey } })
        _ = await radio.handle(.addUpdateContact(AddUpdateContact(contact: Contact(publicKey: newcomer.publicKey, type: .chat, name: "Newcomer",
                                                                                    lastModified: first.contactsWatermark + 10))))
        let listed = try await session.syncContacts(since: first.contactsWatermark).contacts.map(\.publicKey)
        #expect(listed.filter { !atWatermark.contains($0) } == [newcomer.publicKey])
    }

    /// END_OF_CONTACTS carries 0 when nothing was listed; the watermark must not fall back to
    /// it, or every other connect downloads every contact again.
    @Test func aSyncWithNothingNewKeepsTheWatermark() async throws {
        let (session, _) = try session()
        let first = try await session.connect(now: { Self.now })
        let again = try await session.syncContacts(since: first.contactsWatermark)
        #expect(again.contacts.allSatisfy { $0.lastModified == first.contactsWatermark } && again.watermark == first.contactsWatermark)
    }

    /// The firmware never lists a contact whose lastmod is 0, though CONTACTS_START counts it:
    /// the sync keeps what arrived and says so instead of failing.
    @Test func aListingShorterThanAnnouncedIsKeptWithAWarning() async throws {
        let (session, radio) = try session()
        let first = try await session.connect(now: { Self.now })
        let stranger = try #require(await radio.state.nodes.values.first { n in first.contacts.allSatisfy { $0.publicKey != n.publicKey } })
        _ = await radio.handle(.addUpdateContact(AddUpdateContact(contact: Contact(publicKey: stranger.publicKey, type: .chat, name: "Unlisted"))))
        let events = session.subscribe()
        let listed = try await session.syncContacts()
        #expect(listed.contacts.count == DefaultMesh.nodeCount && listed.announced == DefaultMesh.nodeCount + 1)
        // The warning comes before the sync's last progress report.
        var warning: String?
        for await event in events {
            if case let .warning(text) = event { warning = text; break }
            if case let .syncing(.contacts(_, total)) = event, total > 0 { break }
        }
        #expect(warning?.contains("listed \(DefaultMesh.nodeCount) contacts after announcing \(DefaultMesh.nodeCount + 1)") == true, "\(warning ?? "none")")
    }

    @Test func concurrentCommandsAreAnsweredInTheirOwnOrder() async throws {
        let (session, _) = try session()
        _ = try await session.connect(now: { Self.now })
        let answers = try await withThrowingTaskGroup(of: (UInt8, Response).self) { group in
            for i in 0..<40 {
                let index = UInt8(i % 8)
                group.addTask { (index, try await session.call(.getChannel(index))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 40)
        for (index, answer) in answers {
            guard case let .channelInfo(info) = answer else { Issue.record("GET_CHANNEL \(index) answered \(answer)"); continue }
            #expect(info.index == index)
        }
    }

    @Test func anErrorAnswerNamesTheCommandAndTheLink() async throws {
        let (session, _) = try session()
        _ = try await session.connect(now: { Self.now })
        await #expect(throws: SessionError.refused(command: "CMD_GET_CHANNEL", url: "sim://radio", .notFound)) {
            try await session.call(.getChannel(40))
        }
        #expect(try await session.call(.getDeviceTime) != .noMoreMessages, "the session goes on")
    }

    @Test func pushesReachTheEventStream() async throws {
        let (session, radio) = try session()
        let events = session.subscribe()
        _ = try await session.connect(now: { Self.now })
        await radio.deliver(.channel(index: 0, senderName: "Ann", text: "hi", sentAt: Self.now, hops: 0))
        var seen: [SessionEvent] = []
        for await event in events {
            seen.append(event)
            if event == .push(.messageWaiting) { break }
        }
        #expect(seen.contains(.state(.ready)) && seen.contains(.syncing(.channels)))
    }

    @Test func silenceIsANoAnswerErrorAndALostLinkEndsTheWait() async throws {
        let silent = try SilentTransport()
        let session = RadioSession(transport: silent, commandTimeout: .milliseconds(200))
        await #expect(throws: SessionError.noAnswer(command: "CMD_APP_START", url: "sim://silent", seconds: 0.2)) {
            _ = try await session.connect(now: { Self.now })
        }
        #expect(await session.state == .disconnected)

        let dropped = try SilentTransport()
        let other = RadioSession(transport: dropped, commandTimeout: .seconds(30))
        try await other.open()
        let answer = Task { try await other.call(.getDeviceTime) }
        try await dropped.waitForFrame()
        dropped.lose()
        await #expect(throws: SessionError.linkClosed(command: "CMD_GET_DEVICE_TIME", url: "sim://silent", reason: "link ended")) { _ = try await answer.value }
    }

    /// A limit of no time may run before the command is even sent: it still ends the command,
    /// every time, and the next one is not held up.
    @Test func aLimitOfNoTimeEndsTheCommand() async throws {
        let silent = try SilentTransport()
        let session = RadioSession(transport: silent, commandTimeout: .seconds(30))
        try await session.open()
        for _ in 0..<200 {
            await #expect(throws: SessionError.noAnswer(command: "CMD_GET_DEVICE_TIME", url: "sim://silent", seconds: 0)) {
                _ = try await session.call(.getDeviceTime, timeout: .zero)
            }
        }
    }

    /// A send the link refuses at once, on the session's own thread, fails the command with the
    /// link's reason, and the next command is still tried.
    @Test func aSendRefusedOnTheSpotFailsTheCommand() async throws {
        let refusing = try SilentTransport(refuseSends: .linkLost("sim://silent", reason: "cable pulled"))
        let session = RadioSession(transport: refusing, commandTimeout: .seconds(30))
        try await session.open()
        for _ in 0..<2 {
            await #expect(throws: SessionError.linkClosed(command: "CMD_GET_DEVICE_TIME", url: "sim://silent",
                                                          reason: "\(TransportError.linkLost("sim://silent", reason: "cable pulled"))")) {
                _ = try await session.call(.getDeviceTime)
            }
        }
        #expect(refusing.refused.load(ordering: .relaxed) == 2)
    }

    /// On a link whose driver says it pairs, APP_START waits the pairing time (a person may be
    /// typing the passkey), not the command timeout that failed the same session above.
    @Test func aLinkThatPairsGivesAppStartThePairingTime() async throws {
        let pairing = try SilentTransport(flags: .needsPairing)
        let session = RadioSession(transport: pairing, commandTimeout: .milliseconds(200))
        let connecting = Task { try await session.connect(now: { Self.now }) }
        try await pairing.waitForFrame()
        try await Task.sleep(for: .seconds(1))   // five command timeouts
        pairing.lose()
        await #expect(throws: SessionError.linkClosed(command: "CMD_APP_START", url: "sim://silent", reason: "link ended")) { _ = try await connecting.value }
    }
}

/// A far side that takes every frame and never answers: a radio that hangs, or the wrong device.
final class SilentTransport: Transport, @unchecked Sendable {
    let url: TransportURL
    let frames: AsyncStream<[UInt8]>
    let states: AsyncStream<LinkState>
    private let frameSink: AsyncStream<[UInt8]>.Continuation
    private let stateSink: AsyncStream<LinkState>.Continuation
    private let received = AsyncStream<Void>.makeStream()

    let linkFlags: LinkFlags
    /// When set, every frame is refused with it on the caller's thread (`sendIfIdle`).
    private let refusal: TransportError?
    let refused = Atomic(0)

    init(flags: LinkFlags = [], refuseSends refusal: TransportError? = nil) throws {
        url = try TransportURL("sim://silent")
        linkFlags = flags
        self.refusal = refusal
        (frames, frameSink) = AsyncStream.makeStream()
        (states, stateSink) = AsyncStream.makeStream()
    }

    func open() async throws { stateSink.yield(.open) }
    func send(_ frame: [UInt8]) async throws { received.continuation.yield() }

    func sendIfIdle(_ frame: [UInt8]) -> Result<Void, any Error>? {
        guard let refusal else { return nil }
        refused.add(1, ordering: .relaxed)
        return .failure(refusal)
    }
    func close() async { lose() }

    func lose() {
        frameSink.finish()
        stateSink.finish()
    }

    /// Returns once a frame has been sent here.
    func waitForFrame() async throws {
        for await _ in received.stream { return }
    }
}
