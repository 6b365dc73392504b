import MeshCodec
@testable import MeshSim
import Testing

/// Adverts heard from the mesh under the auto-add rules, and the preference commands.
@Suite(.timeLimit(.minutes(1))) struct AdvertAndSettingsTests {
    /// Three contacts (table of 3) and two strangers, one of them two hops away.
    private func radio(autoAdd: AutoAddConfig? = nil, manual: Bool = false) throws -> SimRadioState {
        var scenario = Scenario(radio: { var r = RadioSpec(); r.maxContacts = 3; return r }())
        scenario.nodes = ["a", "b", "c"].map { NodeSpec(id: $0) } + [NodeSpec(id: "rpt"), NodeSpec(id: "far")].map {
            var n = $0
            n.contact = false
            if n.id == "rpt" { n.type = "repeater" } else { n.via = ["rpt", "rpt"] }
            return n
        }
        var s = try scenario.state(seed: 4)
        if manual { _ = SimHandler.handle(&s, .setOtherParams(OtherParams(manualAddContacts: 1)), now: .zero) }
        if let autoAdd { _ = SimHandler.handle(&s, .setAutoAddConfig(autoAdd), now: .zero) }
        return s
    }

    private func key(_ s: SimRadioState, _ name: String) -> PublicKey { s.nodes.values.first { $0.name == name }!.publicKey }

    private func hear(_ s: inout SimRadioState, _ name: String, at t: Int) -> [RadioFrame] {
        SimHandler.schedule(&s, ScheduledEvent(due: .seconds(t), kind: .advertArrives(from: key(s, name), timestamp: 1_800_000_000 + UInt32(t))))
        return SimHandler.advance(&s, to: .seconds(t)).withoutAirLog
    }

    @Test func aKnownContactIsUpdatedAndReplaysIgnored() throws {
        var s = try radio()
        let a = key(s, "a")
        #expect(hear(&s, "a", at: 10) == [.push(.advert(a))])
        #expect(s.contacts.contact(a)?.lastAdvert == 1_800_000_010 && s.contacts.contact(a)?.lastModified == s.deviceTime(at: .seconds(10)))
        SimHandler.schedule(&s, ScheduledEvent(due: .seconds(20), kind: .advertArrives(from: a, timestamp: 1_800_000_010)))
        #expect(SimHandler.advance(&s, to: .seconds(20)).withoutAirLog.isEmpty, "same timestamp: a replay")
    }

    @Test func fullTableOffersTheAdvertAndSaysFull() throws {
        var s = try radio()
        guard case let .push(.newAdvert(offered)) = hear(&s, "rpt", at: 5).first else { Issue.record("no NEW_ADVERT"); return }
        #expect(offered.name == "rpt" && offered.type == .repeater && s.contacts.count == 3)
        #expect(hear(&s, "far", at: 6).last == .push(.contactsFull))
    }

    @Test func overwriteOldestEvictsTheOldestNonFavourite() throws {
        var s = try radio(autoAdd: AutoAddConfig(bitmask: 0x01, maxHops: 0))
        _ = SimHandler.handle(&s, .addUpdateContact(AddUpdateContact(contact: { var c = s.contacts.contact(key(s, "a"))!; c.flags = .favourite; return c }())), now: .zero)
        let b = key(s, "b")
        _ = hear(&s, "c", at: 1)   // c becomes newer than b
        #expect(hear(&s, "rpt", at: 5) == [.push(.contactDeleted(b)), .push(.advert(key(s, "rpt")))])
        #expect(s.contacts.contact(b) == nil && s.contacts.count == 3)
    }

    @Test func manualModeAddsOnlyEnabledTypesWithinTheHopLimit() throws {
        var s = try radio(autoAdd: AutoAddConfig(bitmask: 0x04 | 0x02, maxHops: 2), manual: true)
        _ = SimHandler.handle(&s, .removeContact(key(s, "c")), now: .zero)
        _ = SimHandler.handle(&s, .removeContact(key(s, "b")), now: .zero)
        #expect(hear(&s, "rpt", at: 1) == [.push(.advert(key(s, "rpt")))], "repeaters enabled, zero hops")
        guard case .push(.newAdvert) = hear(&s, "far", at: 2).first else { Issue.record("2 hops with max 2 (≤ 1 hop) is only offered"); return }
        #expect(s.contacts.count == 2)
        #expect(SimHandler.handle(&s, .getAdvertPath(key(s, "far"), reserved: 0), now: .seconds(3)).first
            == .response(.advertPath(AdvertPath(heardAt: s.deviceTime(at: .seconds(2)), path: s.nodes[key(s, "far")]!.returnPath))))
        #expect(SimHandler.handle(&s, .getAdvertPath(key(s, "a"), reserved: 0), now: .zero) == [.response(.error(.notFound))])
    }

    @Test func preferencesAreKeptAndReported() throws {
        var s = try radio()
        let ok: [RadioFrame] = [.response(.ok(value: nil))]
        let modes = TelemetryModes(base: 2, location: 1, environment: 0)
        #expect(SimHandler.handle(&s, .setOtherParams(OtherParams(manualAddContacts: 1, telemetryModes: modes, advertLocationPolicy: 1, multiAcks: 2)), now: .zero) == ok)
        let answer = SimHandler.handle(&s, .appStart(AppStart(appName: "t")), now: .zero)
        guard case let .response(.selfInfo(info))? = answer.first else { Issue.record("APP_START answered \(answer), not SELF_INFO"); return }
        #expect(info.manualAddContacts == 1 && info.telemetryModes == modes && info.advertLocationPolicy == 1 && info.multiAcks == 2)
        #expect(SimHandler.handle(&s, .setAutoAddConfig(AutoAddConfig(bitmask: 0x1E, maxHops: 200)), now: .zero) == ok)
        #expect(SimHandler.handle(&s, .getAutoAddConfig, now: .zero) == [.response(.autoAddConfig(AutoAddConfig(bitmask: 0x1E, maxHops: 64)))])
        for (pin, good) in [(0, true), (123_456, true), (99_999, false), (1_000_000, false)] as [(UInt32, Bool)] {
            #expect(SimHandler.handle(&s, .setDevicePin(pin), now: .zero) == (good ? ok : [.response(.error(.illegalArgument))]), "PIN \(pin)")
        }
        #expect(s.blePin == 123_456)
        #expect(SimHandler.handle(&s, .setPathHashMode(3), now: .zero) == [.response(.error(.illegalArgument))])
        #expect(SimHandler.handle(&s, .setTuningParams(rxDelayBase: 50_000, airtimeFactor: 2000), now: .zero) == ok)
        #expect(SimHandler.handle(&s, .getTuningParams, now: .zero) == [.response(.tuningParams(rxDelayBase: 20_000, airtimeFactor: 2000))])
        let scope = FloodScope(name: "#nl", key: [UInt8](repeating: 1, count: 16))
        #expect(SimHandler.handle(&s, .setDefaultFloodScope(scope), now: .zero) == ok)
        #expect(SimHandler.handle(&s, .getDefaultFloodScope, now: .zero) == [.response(.defaultFloodScope(scope))])
        #expect(SimHandler.handle(&s, .getAllowedRepeatFreq, now: .zero).count == 1)
    }
}
