import MeshCodec
@testable import MeshSim
import Testing

/// The pure command handler, one command at a time, against firmware v1.17.1's answers.
@Suite(.timeLimit(.minutes(1))) struct HandlerTests {
    private func radio(maxContacts: Int = 100) -> SimRadioState {
        var limits = SimLimits()
        limits.maxContacts = maxContacts
        return DefaultMesh.state(seed: 42, limits: limits)
    }

    private func contact(_ n: UInt8, lastModified: UInt32 = 0) -> Contact {
        Contact(publicKey: PublicKey([UInt8](repeating: n, count: 32))!, type: .chat, name: "c\(n)", lastModified: lastModified)
    }

    private func run(_ s: inout SimRadioState, _ c: Command, at now: Duration = .zero) -> [RadioFrame] {
        SimHandler.handle(&s, c, now: now)
    }

    private let ok: [RadioFrame] = [.response(.ok(value: nil))]
    private func err(_ e: RadioError) -> [RadioFrame] { [.response(.error(e))] }

    @Test func appStartAnswersSelfInfo() {
        var s = radio()
        guard case let .response(.selfInfo(info)) = run(&s, .appStart(AppStart(appName: "t"))).first else { Issue.record("no SELF_INFO"); return }
        #expect(info.publicKey == s.publicKey && info.name == s.name && info.txPower == 20 && info.maxTxPower == 20)
        #expect(info.radio == RadioParams(frequencyKHz: 915_000, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 5))
    }

    @Test func deviceQuerySetsTheMessageFormat() {
        var s = radio()
        guard case let .response(.deviceInfo(d)) = run(&s, .deviceQuery(appTargetVersion: 3)).first else { Issue.record("no DEVICE_INFO"); return }
        #expect(d.protocolVersion == 13 && d.firmwareVersion == "v1.17.1" && d.maxContacts == 100 && d.maxChannels == 8)
        #expect(s.appTargetVersion == 3 && s.messageFormat == .v3)
    }

    @Test func contactsStreamWithAndWithoutSince() {
        var s = radio()
        let all = run(&s, .getContacts(since: nil))
        #expect(all.first == .response(.contactsStart(total: 20)) && all.count == 22)
        let newest = s.contacts.contacts.map(\.lastModified).max() ?? 0
        #expect(all.last == .response(.endOfContacts(lastModified: newest)))
        let cut = s.contacts.contacts.map(\.lastModified).sorted()[15]
        let recent = run(&s, .getContacts(since: cut))
        #expect(recent.first == .response(.contactsStart(total: 20)), "the total, not the filtered count")
        #expect(recent.count == 2 + s.contacts.contacts.filter { $0.lastModified > cut }.count)
        let none = run(&s, .getContacts(since: newest))
        #expect(none == [.response(.contactsStart(total: 20)), .response(.endOfContacts(lastModified: 0))])
    }

    @Test func contactByKeyAddRemoveResetPath() {
        var s = radio()
        let c = contact(7, lastModified: 1_800_000_000)
        #expect(run(&s, .getContactByKey(c.publicKey)) == err(.notFound))
        #expect(run(&s, .addUpdateContact(AddUpdateContact(contact: c))) == ok)
        #expect(run(&s, .getContactByKey(c.publicKey)) == [.response(.contact(c))])
        // Without lastmod on the wire the radio stamps its clock.
        var renamed = c
        renamed.name = "renamed"
        #expect(run(&s, .addUpdateContact(AddUpdateContact(contact: renamed, layout: .withPosition)), at: .seconds(10)) == ok)
        #expect(s.contacts.contact(c.publicKey)?.lastModified == SimRadioState.bootTime + 10)
        let direct = s.contacts.contacts[0]
        #expect(!direct.outPath.length.isNone)
        #expect(run(&s, .resetPath(direct.publicKey)) == ok)
        #expect(s.contacts.contact(direct.publicKey)?.outPath == Path.none)
        #expect(s.contacts.contact(direct.publicKey)?.lastModified == direct.lastModified)
        #expect(run(&s, .removeContact(c.publicKey)) == ok)
        #expect(run(&s, .removeContact(c.publicKey)) == err(.notFound))
        #expect(run(&s, .resetPath(c.publicKey)) == err(.notFound))
    }

    @Test func fullTableRefusesNewContactsButUpdatesKnownOnes() {
        var s = radio(maxContacts: 20)
        #expect(run(&s, .addUpdateContact(AddUpdateContact(contact: contact(1)))) == err(.tableFull))
        var known = s.contacts.contacts[3]
        known.flags = .favourite
        #expect(run(&s, .addUpdateContact(AddUpdateContact(contact: known))) == ok)
        #expect(s.contacts.contact(known.publicKey)?.flags == .favourite)
    }

    @Test func messageQueueDrainsThenSaysNoMore() {
        var s = radio()
        var drained = 0
        while case let .response(r) = run(&s, .syncNextMessage).first, r != .noMoreMessages {
            switch r {
            case let .contactMessage(m): #expect(m.format == .legacy, "queued before any DEVICE_QUERY(3)")
            case let .channelMessage(m): #expect(m.format == .legacy && m.channelIndex == 0)
            default: Issue.record("unexpected \(r.name)")
            }
            drained += 1
            if drained > 100 { break }
        }
        #expect(drained == 7)
        #expect(run(&s, .syncNextMessage) == [.response(.noMoreMessages)])
    }

    @Test func queueFullDropsOldestChannelMessageThenNewDMs() {
        var q = OfflineQueue(capacity: 3)
        let key = PublicKey([UInt8](repeating: 9, count: 32))!
        let dm = { (t: UInt32) in Response.contactMessage(ContactMessage(senderPrefix: key.prefix(), pathLength: .none, senderTimestamp: t, text: "dm")) }
        let ch = Response.channelMessage(ChannelMessage(channelIndex: 0, pathLength: .none, senderTimestamp: 1, text: "a: b"))
        q.push(dm(1)); q.push(ch); q.push(dm(2))
        let queued = q.push(dm(3))
        #expect(queued)
        #expect(q.messages == [dm(1), dm(2), dm(3)])
        let lost = !q.push(dm(4))
        #expect(lost)
        #expect(q.messages == [dm(1), dm(2), dm(3)] && q.dropped == 2)
    }

    @Test func sendTextAnswersSentWithTheExpectedAck() {
        var s = radio()
        let to = s.contacts.contacts[0]
        let m = SendTextMessage(timestamp: 1_800_000_000, recipient: to.publicKey.prefix(), text: "hello")
        guard case let .response(.sent(sent)) = run(&s, .sendTextMessage(m)).first else { Issue.record("no SENT"); return }
        #expect(sent.ackCode == AckCode.expected(timestamp: m.timestamp, attempt: 0, text: Array("hello".utf8), sender: s.publicKey))
        #expect(!sent.flood, "the contact has a path")
        #expect(sent.suggestedTimeoutMs > 500)
        let flood = s.contacts.contacts[1]
        guard case let .response(.sent(viaFlood)) = run(&s, .sendTextMessage(SendTextMessage(timestamp: 1, recipient: flood.publicKey.prefix(), text: "x"))).first else {
            Issue.record("no SENT"); return
        }
        #expect(viaFlood.flood)
    }

    @Test func sendTextErrors() {
        var s = radio()
        let unknown = KeyPrefix([1, 2, 3, 4, 5, 6])!
        #expect(run(&s, .sendTextMessage(SendTextMessage(timestamp: 1, recipient: unknown, text: "x"))) == err(.notFound))
        let known = s.contacts.contacts[0].publicKey.prefix()
        #expect(run(&s, .sendTextMessage(SendTextMessage(textType: .signedPlain, timestamp: 1, recipient: known, text: "x"))) == err(.unsupportedCommand))
        #expect(run(&s, .sendTextMessage(SendTextMessage(timestamp: 1, recipient: known, text: String(repeating: "a", count: 161)))) == err(.tableFull))
    }

    @Test func channelSendAnswersOKAndChecksTheIndex() {
        var s = radio()
        #expect(run(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 1, text: "hi"))) == ok)
        #expect(run(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 5, timestamp: 1, text: "empty slot"))) == ok)
        #expect(run(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 8, timestamp: 1, text: "x"))) == err(.notFound))
        #expect(run(&s, .sendChannelTextMessage(SendChannelTextMessage(textType: .cliData, channelIndex: 0, timestamp: 1, text: "x"))) == err(.unsupportedCommand))
    }

    @Test func channelsGetAndSet() {
        var s = radio()
        #expect(run(&s, .getChannel(0)) == [.response(.channelInfo(ChannelInfo(index: 0, name: "Public", secret: .publicChannel)))])
        #expect(run(&s, .getChannel(7)) == [.response(.channelInfo(ChannelInfo(index: 7, name: "", secret: .empty)))])
        #expect(run(&s, .getChannel(8)) == err(.notFound))
        let test = ChannelInfo(index: 3, name: "#test", secret: .hashtag("#test"))
        #expect(run(&s, .setChannel(test)) == ok)
        #expect(run(&s, .getChannel(3)) == [.response(.channelInfo(test))])
        #expect(run(&s, .setChannel(ChannelInfo(index: 8, name: "x", secret: .empty))) == err(.notFound))
    }

    @Test func clockOnlyMovesForward() {
        var s = radio()
        #expect(run(&s, .getDeviceTime, at: .seconds(5)) == [.response(.currentTime(SimRadioState.bootTime + 5))])
        #expect(run(&s, .setDeviceTime(1_800_000_000), at: .seconds(5)) == ok)
        #expect(run(&s, .setDeviceTime(1_800_000_000), at: .seconds(5)) == ok, "equal is allowed")
        #expect(run(&s, .setDeviceTime(1_799_999_999), at: .seconds(5)) == err(.illegalArgument))
        #expect(run(&s, .getDeviceTime, at: .seconds(65)) == [.response(.currentTime(1_800_000_060))])
    }

    @Test func nameAndLocation() {
        var s = radio()
        #expect(run(&s, .setAdvertName("Base camp")) == ok && s.name == "Base camp")
        let p = Coordinates(latitude: -33.9, longitude: 151.2)
        #expect(run(&s, .setAdvertLatLon(p, altitude: nil)) == ok && s.position == p)
        #expect(run(&s, .setAdvertLatLon(Coordinates(latitudeE6: 90_000_001, longitudeE6: 0), altitude: nil)) == err(.illegalArgument))
        #expect(run(&s, .setAdvertLatLon(Coordinates(latitudeE6: 0, longitudeE6: -180_000_001), altitude: nil)) == err(.illegalArgument))
        #expect(s.position == p)
    }

    @Test(arguments: [
        RadioParams(frequencyKHz: 149_999, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 5),
        RadioParams(frequencyKHz: 2_500_001, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 5),
        RadioParams(frequencyKHz: 869_525, bandwidthHz: 6_999, spreadingFactor: 10, codingRate: 5),
        RadioParams(frequencyKHz: 869_525, bandwidthHz: 500_001, spreadingFactor: 10, codingRate: 5),
        RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 4, codingRate: 5),
        RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 13, codingRate: 5),
        RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 4),
        RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 9),
    ])
    func radioParamsOutOfRange(_ p: RadioParams) {
        var s = radio()
        let before = s.radio
        #expect(run(&s, .setRadioParams(p, clientRepeat: nil)) == err(.illegalArgument))
        #expect(s.radio == before)
    }

    @Test func radioParamsAndRepeat() {
        var s = radio()
        let eu = RadioParams(frequencyKHz: 869_525, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5)
        #expect(run(&s, .setRadioParams(eu, clientRepeat: nil)) == ok && s.radio == eu)
        #expect(run(&s, .setRadioParams(eu, clientRepeat: true)) == err(.illegalArgument), "869.525 is not an allowed repeat frequency")
        let allowed = RadioParams(frequencyKHz: 869_495, bandwidthHz: 250_000, spreadingFactor: 11, codingRate: 5)
        #expect(run(&s, .setRadioParams(allowed, clientRepeat: true)) == ok && s.clientRepeat)
    }

    @Test func txPowerRange() {
        var s = radio()
        #expect(run(&s, .setRadioTxPower(-9)) == ok && s.txPower == -9)
        #expect(run(&s, .setRadioTxPower(20)) == ok && s.txPower == 20)
        #expect(run(&s, .setRadioTxPower(-10)) == err(.illegalArgument))
        #expect(run(&s, .setRadioTxPower(21)) == err(.illegalArgument))
        #expect(s.txPower == 20)
    }

    @Test func batteryAndStats() {
        var s = radio()
        guard case let .response(.batteryAndStorage(b)) = run(&s, .getBatteryAndStorage).first else { Issue.record("no BATT_AND_STORAGE"); return }
        #expect(b.millivolts == 4100 && b.storageUsedKiB != nil && b.storageTotalKiB != nil)
        _ = run(&s, .sendChannelTextMessage(SendChannelTextMessage(channelIndex: 0, timestamp: 1, text: "hi")))
        guard case let .response(.stats(.packets(p))) = run(&s, .getStats(.packets)).first else { Issue.record("no STATS"); return }
        #expect(p.sent == 1 && p.sentFlood == 1 && p.received == 7)
        guard case let .response(.stats(.core(c))) = run(&s, .getStats(.core), at: .seconds(90)).first else { Issue.record("no STATS"); return }
        #expect(c.uptimeSeconds == 90)
    }

    @Test func unknownCommandsAreUnsupported() {
        var s = radio()
        #expect(run(&s, .unknown(code: 0x30, payload: [])) == err(.unsupportedCommand))
    }

    @Test func determinismFromTheSeed() {
        #expect(DefaultMesh.state(seed: 5) == DefaultMesh.state(seed: 5))
        let a = DefaultMesh.state(seed: 5), b = DefaultMesh.state(seed: 6)
        #expect(a.publicKey != b.publicKey && a.contacts != b.contacts)
        #expect(a.contacts.count == 20 && a.contacts.contacts.filter { $0.type == .repeater }.count == 2
            && a.contacts.contacts.filter { $0.type == .room }.count == 1)
        // The same sends on the same seed take the same simulated time.
        var x = a, y = DefaultMesh.state(seed: 5)
        let m = SendTextMessage(timestamp: 9, recipient: a.contacts.contacts[0].publicKey.prefix(), text: "same")
        _ = run(&x, .sendTextMessage(m))
        _ = run(&y, .sendTextMessage(m))
        #expect(x.scheduled == y.scheduled)
    }
}
