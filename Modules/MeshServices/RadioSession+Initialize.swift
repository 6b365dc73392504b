import Foundation
import MeshCodec
import MeshTransport

/// What initialization learned from the radio.
public struct RadioSnapshot: Hashable, Sendable {
    public var selfInfo: SelfInfo
    public var deviceInfo: DeviceInfo
    /// The radio's clock after initialization, and whether the session set it.
    public var clock: UInt32
    public var clockSet: Bool
    /// The watermark the contact sync started from: nil for a full sync.
    public var contactsSince: UInt32?
    /// Contacts changed since `contactsSince` (all of them without one).
    public var contacts: [Contact]
    /// The watermark for the next incremental sync (END_OF_CONTACTS' lastmod).
    public var contactsWatermark: UInt32
    /// How many contacts the radio holds, as CONTACTS_START announced them.
    public var contactsAnnounced: Int
    /// The channel slots the radio has, empty ones included.
    public var channels: [ChannelInfo]
    /// Messages drained from the radio's queue, in the order it gave them.
    public var messages: [Response]
}

extension RadioSession {
    /// The largest drift the clock is allowed before the session sets it (Docs/protocol.md §7.1).
    public static let clockTolerance: UInt32 = 60
    static let channelSlots: UInt8 = 8
    /// The first command on a link that pairs (BLE) may wait for the person to type the radio's passkey.
    public static let pairingTimeout: Duration = .seconds(40)

    /// Opens the link and initializes as Docs/protocol.md §7.1 orders it: APP_START, DEVICE_QUERY
    /// (protocol 3), the clock (set only when more than 60 s behind: it never goes back),
    /// contacts since the watermark, every channel slot, then the message queue. A link lost
    /// later is reopened and initialized the same way (see `ReconnectPolicy`).
    public func connect(_ setup: SessionSetup = SessionSetup()) async throws -> RadioSnapshot {
        self.setup = setup
        try await open()
        do {
            let snapshot = try await initialize(setup)
            try requireLink()
            set(.ready)
            return snapshot
        } catch {
            await close()
            throw error
        }
    }

    /// `connect` with a fixed watermark and clock, and nothing kept.
    public func connect(contactsSince: UInt32? = nil, now: @escaping @Sendable () -> UInt32) async throws -> RadioSnapshot {
        try await connect(SessionSetup(contactsSince: { _ in contactsSince }, now: now))
    }

    func initialize(_ setup: SessionSetup) async throws -> RadioSnapshot {
        report(.syncing(.selfInfo))
        let pairing = transport?.linkFlags.contains(.needsPairing) == true ? Self.pairingTimeout : nil
        let selfInfo = try await expect(.appStart(AppStart(appName: clientName)), timeout: pairing) { if case let .selfInfo(v) = $0 { v } else { nil } }
        report(.syncing(.deviceInfo))
        let deviceInfo = try await expect(.deviceQuery(appTargetVersion: 3)) { if case let .deviceInfo(v) = $0 { v } else { nil } }

        report(.syncing(.clock))
        var clock = try await expect(.getDeviceTime) { if case let .currentTime(v) = $0 { v } else { nil } }
        let local = setup.now()
        var clockSet = false
        if local > clock, local - clock > Self.clockTolerance {
            try await expectOK(.setDeviceTime(local))
            (clock, clockSet) = (local, true)
        }

        let since = try await setup.contactsSince(selfInfo)
        let (contacts, watermark, announced) = try await syncContacts(since: since)

        report(.syncing(.channels))
        var channels: [ChannelInfo] = []
        for index in 0..<min(Self.channelSlots, deviceInfo.maxChannels ?? Self.channelSlots) {
            channels.append(try await expect(.getChannel(index)) { if case let .channelInfo(v) = $0 { v } else { nil } })
        }

        var snapshot = RadioSnapshot(selfInfo: selfInfo, deviceInfo: deviceInfo, clock: clock, clockSet: clockSet, contactsSince: since, contacts: contacts,
                                     contactsWatermark: watermark, contactsAnnounced: announced, channels: channels, messages: [])
        try await setup.initialized(snapshot)
        snapshot.messages = try await drain(into: setup.received)
        return snapshot
    }

    /// GET_CONTACTS: the stream CONTACTS_START, a CONTACT for each contact changed since
    /// `since` (all of them without it), END_OF_CONTACTS.
    /// The watermark returned is where the next incremental sync starts: END_OF_CONTACTS
    /// carries 0 when nothing was listed, which would make it a full sync again.
    /// The radio stamps lastmod in whole seconds and lists `lastmod > since`, so a contact changed
    /// after a listing but within the watermark's second would never be listed: the request
    /// starts one second earlier, and the few contacts of that second come again (kept as before).
    public func syncContacts(since: UInt32? = nil) async throws -> (contacts: [Contact], watermark: UInt32, announced: Int) {
        report(.syncing(.contacts(received: 0, total: 0)))
        let frames = try await contactStream(since: since.map { $0 > 1 ? $0 - 1 : $0 })
        guard case let .response(.contactsStart(total))? = frames.first, case let .response(.endOfContacts(watermark))? = frames.last else {
            throw SessionError.unexpected(command: "CMD_GET_CONTACTS", url: radioURL, got: frames.map(\.name).joined(separator: ", "))
        }
        let contacts = frames.dropFirst().dropLast().compactMap { frame -> Contact? in
            if case let .response(.contact(c)) = frame { c } else { nil }
        }
        // CONTACTS_START counts every contact, not only those newer than `since` (Docs/protocol.md §4),
        // and the firmware never lists a contact whose lastmod is 0: a count that differs is
        // reported and what arrived is kept.
        if since == nil ? contacts.count != Int(total) : contacts.count > Int(total) {
            report(.warning("the radio on \(radioURL) listed \(contacts.count) contacts after announcing \(total); "
                            + "keeping the \(contacts.count) it sent (firmware versions count differently)"))
        }
        report(.syncing(.contacts(received: contacts.count, total: Int(total))))
        return (contacts, max(since ?? 0, watermark), Int(total))
    }

    /// GET_CONTACTS's frames as they came: CONTACTS_START, a CONTACT each, END_OF_CONTACTS (or
    /// the frame that broke the stream, for the caller to report). A stream takes longer than
    /// one answer: its time limit is six commands'. Companion clients' GET_CONTACTS goes
    /// through here too (Modules/MeshportServer/Companion/CommandRelay.swift).
    public func contactStream(since: UInt32?) async throws -> [RadioFrame] {
        try await exchange(.getContacts(since: since), timeout: commandTimeout * 6, until: { frames in
            guard case .response(.contactsStart) = frames[0] else { return true }
            guard frames.count > 1, let last = frames.last else { return false }
            if case .response(.contact) = last { return false }
            return true
        })
    }

    /// SYNC_NEXT_MESSAGE until NO_MORE_MESSAGES (Docs/protocol.md §7.3). Each message goes to
    /// `keep` before the next is asked for: when keeping one fails or the link is lost, the
    /// drain stops and the rest stay queued on the radio.
    public func drain(into keep: @Sendable (Response) async throws -> Void = { _ in }) async throws -> [Response] {
        var messages: [Response] = []
        while true {
            report(.syncing(.messages(drained: messages.count)))
            let answer = try await call(.syncNextMessage)
            switch answer {
            case .noMoreMessages: return messages
            case .contactMessage, .channelMessage, .channelData:
                try await keep(answer)
                messages.append(answer)
            default: throw SessionError.unexpected(command: "CMD_SYNC_NEXT_MESSAGE", url: radioURL, got: RadioFrame.response(answer).name)
            }
        }
    }
}
