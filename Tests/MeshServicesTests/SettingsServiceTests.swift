import Foundation
import MeshCodec
import MeshServices
import MeshSim
import MeshStore
import Testing

/// SettingsService against MeshSim: each setting written, read back and compared; what the
/// radio clamps or truncates is a mismatch; settings by name for `meshport get/set`.
@Suite(.timeLimit(.minutes(1))) struct SettingsServiceTests {
    /// Each writable setting with a value unlike the default mesh's, in an order the radio
    /// accepts (client repeat needs an allowed frequency first), and how `get` shows it.
    static let roundTrips: [(name: String, value: String, shown: String)] = [
        ("name", "Harbour Base", "Harbour Base"),
        ("radio", "869.618,62.5,8,8", "869.618,62.5,8,8"),
        ("freq", "869.495", "869.495"),
        ("bw", "125", "125"),
        ("sf", "9", "9"),
        ("cr", "6", "6"),
        ("client_repeat", "on", "on"),
        ("tx", "10", "10"),
        ("coords", "51.5,-0.12", "51.500000,-0.120000"),
        ("lat", "48.8566", "48.856600"),
        ("lon", "2.3522", "2.352200"),
        ("multi_acks", "on", "on"),
        ("advert_loc_policy", "share", "share"),
        ("manual_add_contacts", "on", "on"),
        ("telemetry_mode_base", "all", "all"),
        ("telemetry_mode_loc", "flags", "flags"),
        ("telemetry_mode_env", "2", "all"),
        ("autoadd_config", "0x1e", "0x1e"),
        ("autoadd_max_hops", "3", "3"),
        ("rx_delay", "1.5", "1.5"),
        ("airtime_factor", "2", "2"),
        ("path_hash_mode", "1", "1"),
        ("pin", "654321", "654321"),
        ("default_scope", "#brabant", "brabant"),
    ]

    @Test func everySettingRoundTripsByName() async throws {
        try await ServiceHarness.with { h in
            let settings = SettingsService(context: h.context)
            let writable = Set(SettingsService.settings.filter(\.isWritable).map(\.name))
            #expect(writable == Set(Self.roundTrips.map(\.name)), "every writable setting is tried")
            for (name, value, shown) in Self.roundTrips {
                let change = try await settings.set(name, value)
                #expect(change.setting == name, "\(name)")
                #expect(try await settings.get(name) == shown, "\(name)")
            }
            // Earlier settings survived the later ones that share a frame (SET_OTHER_PARAMS, SET_RADIO_PARAMS).
            let now = try await settings.current()
            #expect(now.multiAcks && now.advertLocationPolicy == 1 && now.manualAddContacts)
            #expect(now.telemetryModes == TelemetryModes(base: 2, location: 1, environment: 2))
            #expect(now.radio == RadioParams(frequencyKHz: 869_495, bandwidthHz: 125_000, spreadingFactor: 9, codingRate: 6) && now.clientRepeat == true)
            #expect(now.autoAdd == AutoAddConfig(bitmask: 0x1E, maxHops: 3) && now.tuning == TuningParams(rxDelayBase: 1500, airtimeFactor: 2000))
            // Saved to the store's radio row too.
            #expect(try h.store.reader.radio(h.context.radio)?.name == "Harbour Base")
        }
    }

    /// `radio` takes the apps' regional presets by id or name; anything else stays an error
    /// that lists the forms it takes.
    @Test func radioTakesARegionalPreset() async throws {
        #expect(Set(RadioPreset.all.map(\.id)).count == RadioPreset.all.count, "ids are unique")
        #expect(RadioPreset.named("eu-uk-narrow")?.name == "EU/UK (Narrow)" && RadioPreset.named("usa/canada (recommended)")?.id == "usa-canada-recommended")
        try await ServiceHarness.with { h in
            let settings = SettingsService(context: h.context)
            let change = try await settings.set("radio", "eu-uk-narrow")
            #expect(change.after == "869.618,62.5,8,8")
            try await settings.set("radio", "USA/Canada (Recommended)")
            #expect(try await settings.current().radio == RadioParams(frequencyKHz: 910_525, bandwidthHz: 62_500, spreadingFactor: 7, codingRate: 5))
            do {
                try await settings.set("radio", "mars")
                Issue.record("an unknown preset was accepted")
            } catch let error as SettingsError {
                #expect("\(error)".contains("meshport presets"), "\(error)")
            }
            let radio = try #require(SettingsService.settings.first { $0.name == "radio" })
            #expect(radio.choices.contains(SettingChoice(value: "869.618,62.5,8,8", label: "EU/UK (Narrow)")))
        }
    }

    @Test func typedSettersReportBeforeAndAfter() async throws {
        try await ServiceHarness.with { h in
            let settings = SettingsService(context: h.context)
            let before = h.snapshot.selfInfo
            let change = try await settings.setTxPower(before.maxTxPower - 1)
            #expect(change.before == "\(before.txPower)" && change.after == "\(before.maxTxPower - 1)")
            let position = Coordinates(latitude: 52.0, longitude: 5.1234567)
            try await settings.setLocation(position)
            #expect(try await settings.current().position == position)
            let selfInfo = await settings.selfInfo
            #expect(selfInfo.txPower == before.maxTxPower - 1)
        }
    }

    @Test func aClampedValueIsAMismatch() async throws {
        try await ServiceHarness.with { h in
            let settings = SettingsService(context: h.context)
            // The firmware keeps the airtime factor at 9 at most.
            await #expect(throws: SettingsError.mismatch(setting: "tuning", wrote: "0,12", readBack: "0,9")) {
                try await settings.setTuning(TuningParams(rxDelayBase: 0, airtimeFactor: 12_000))
            }
            // Auto-add max hops is clamped to 64.
            await #expect(throws: SettingsError.mismatch(setting: "autoadd", wrote: "0x00, max hops 100", readBack: "0x00, max hops 64")) {
                try await settings.setAutoAdd(AutoAddConfig(bitmask: 0, maxHops: 100))
            }
            // A name over 31 bytes is truncated.
            let long = String(repeating: "n", count: 40)
            do {
                try await settings.setName(long)
                Issue.record("a truncated name was accepted")
            } catch let error as SettingsError {
                guard case let .mismatch(setting, wrote, readBack) = error else { Issue.record("\(error)"); return }
                #expect(setting == "name" && wrote == long && readBack == String(long.prefix(31)))
                #expect("\(error)".contains("meshport get name"), "the message says what to do")
            }
        }
    }

    @Test func badInputIsNamedBeforeAnythingIsSent() async throws {
        try await ServiceHarness.with { h in
            let settings = SettingsService(context: h.context)
            let max = h.snapshot.selfInfo.maxTxPower
            await #expect(throws: SettingsError.outOfRange(setting: "tx", value: "\(max + 1)", range: "-9 to \(max) dBm (this board's maximum)")) {
                try await settings.set("tx", "\(max + 1)")
            }
            await #expect(throws: SettingsError.invalidValue(setting: "sf", value: "fast", expected: "integer (5-12)")) { try await settings.set("sf", "fast") }
            await #expect(throws: SettingsError.readOnly(setting: "max_tx")) { try await settings.set("max_tx", "30") }
            do {
                _ = try await settings.get("volume")
                Issue.record("an unknown setting was read")
            } catch let SettingsError.unknownSetting(name, known) {
                #expect(name == "volume" && known.contains("tx") && known.contains("radio"))
            }
            do {
                try await settings.set("freq", "2600")
                Issue.record("2600 MHz was sent")
            } catch let SettingsError.outOfRange(setting, _, range) {
                #expect(setting == "freq" && range.contains("150-2500 MHz"))
            }
        }
    }

    @Test func currentGathersEveryGetter() async throws {
        try await ServiceHarness.with { h in
            let now = try await SettingsService(context: h.context).current()
            #expect(now.name == h.snapshot.selfInfo.name && now.radio == h.snapshot.selfInfo.radio)
            #expect(now.autoAdd != nil && now.tuning != nil && now.pathHashMode == 0 && now.clientRepeat == false && now.blePin != nil)
            #expect(now.allowedRepeatFrequencies?.count == 3 && now.customVars == [] && now.defaultFloodScope == nil)
            let all = try await SettingsService(context: h.context).all()
            #expect(all.count == SettingsService.settings.count)
        }
    }

    @Test func theClockIsSetForwardOnly() async throws {
        try await ServiceHarness.with { h in
            // The session set the radio to ServiceHarness.now; the manual clock stands still.
            let ahead = SettingsService(context: h.context, localClock: { ServiceHarness.now + 3600 })
            let sync = try await ahead.syncTime()
            #expect(sync.wasSet && sync.radioBefore == ServiceHarness.now && sync.radioAfter == ServiceHarness.now + 3600 && sync.drift == 3600)

            let close = SettingsService(context: h.context, localClock: { ServiceHarness.now + 3620 })
            #expect(try await close.syncTime().wasSet == false, "20 s of drift is left alone")
            #expect(try await close.syncTime(force: true).radioAfter == ServiceHarness.now + 3620)

            let behind = SettingsService(context: h.context, localClock: { ServiceHarness.now })
            #expect(try await behind.syncTime().wasSet == false)
            await #expect(throws: SettingsError.clockCannotGoBack(radio: ServiceHarness.now + 3620, wanted: ServiceHarness.now)) {
                try await behind.syncTime(force: true)
            }
        }
    }
}
