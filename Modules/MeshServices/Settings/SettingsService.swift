import Foundation
import MeshCodec
import MeshStore

/// The radio's settings (Docs/protocol.md §3): every setter reads the current value, writes, reads
/// the value back and compares, so a radio that clamps, rounds or truncates is caught with
/// `SettingsError.mismatch` instead of being believed. Settings are saved to the store's radio
/// row after each change.
public actor SettingsService {
    public nonisolated let context: ServiceContext
    /// The newest SELF_INFO read from the radio.
    public private(set) var selfInfo: SelfInfo
    /// This machine's clock, epoch seconds (tests inject one).
    let localClock: @Sendable () -> UInt32

    public init(context: ServiceContext, localClock: @escaping @Sendable () -> UInt32 = { UInt32(Date().timeIntervalSince1970) }) {
        self.context = context
        self.selfInfo = context.selfInfo
        self.localClock = localClock
    }

    var session: RadioSession { context.session }

    // MARK: Reading

    /// Everything settable, from SELF_INFO, DEVICE_INFO and each getter the firmware has.
    public func current() async throws -> RadioSettings {
        var settings = RadioSettings(selfInfo: try await readSelfInfo(), deviceInfo: try await readDeviceInfo())
        settings.autoAdd = try await optional { try await self.readAutoAdd() }
        settings.tuning = try await optional { try await self.readTuning() }
        settings.defaultFloodScope = try await optional { try await self.readDefaultFloodScope() } ?? nil
        settings.allowedRepeatFrequencies = try await optional {
            try await self.session.expect(.getAllowedRepeatFreq) { if case let .allowedRepeatFreq(v) = $0 { v } else { nil } }
        }
        settings.customVars = try await optional { try await self.readCustomVars() }
        return settings
    }

    /// APP_START again: the radio answers with its current SELF_INFO.
    public func readSelfInfo() async throws -> SelfInfo {
        let info = try await session.expect(.appStart(AppStart(appName: session.clientName))) { if case let .selfInfo(v) = $0 { v } else { nil } }
        selfInfo = info
        return info
    }

    func readDeviceInfo() async throws -> DeviceInfo {
        try await session.expect(.deviceQuery(appTargetVersion: 3)) { if case let .deviceInfo(v) = $0 { v } else { nil } }
    }

    func readAutoAdd() async throws -> AutoAddConfig {
        try await session.expect(.getAutoAddConfig) { if case let .autoAddConfig(v) = $0 { v } else { nil } }
    }

    func readTuning() async throws -> TuningParams {
        try await session.expect(.getTuningParams) { if case let .tuningParams(rx, af) = $0 { TuningParams(rxDelayBase: rx, airtimeFactor: af) } else { nil } }
    }

    func readDefaultFloodScope() async throws -> FloodScope? {
        try await session.expect(.getDefaultFloodScope) { if case let .defaultFloodScope(v) = $0 { .some(v) } else { nil } }
    }

    func readCustomVars() async throws -> [CustomVar] {
        try await session.expect(.getCustomVars) { if case let .customVars(v) = $0 { v } else { nil } }
    }

    /// A getter the firmware may not have: UNSUPPORTED_CMD reads as nil.
    private func optional<T: Sendable>(_ read: @Sendable () async throws -> T) async throws -> T? {
        do {
            return try await read()
        } catch SessionError.refused(_, _, .unsupportedCommand) {
            return nil
        }
    }

    // MARK: Read-modify-verify

    /// Reads the current value, writes, reads back and compares with `accepts`.
    func apply<V: Sendable>(_ setting: String, _ wanted: V, format: (V) -> String, write: Command,
                            read: () async throws -> V, accepts: (V, V) -> Bool) async throws -> SettingChange {
        let before = try await read()
        do {
            try await session.expectOK(write)
        } catch let SessionError.refused(_, _, error) {
            throw SettingsError.refused(setting: setting, value: format(wanted), error)
        }
        let after = try await read()
        guard accepts(wanted, after) else {
            throw SettingsError.mismatch(setting: setting, wrote: format(wanted), readBack: format(after))
        }
        await saveSelfInfo()
        return SettingChange(setting: setting, before: format(before), wrote: format(wanted), after: format(after))
    }

    /// Keeps the store's radio row (identity and settings) in step with the radio.
    private func saveSelfInfo() async {
        do {
            try await context.store.writer.register(selfInfo)
        } catch {
            context.events.emit(.problem("the radio's new settings were not saved to the store: \(error)"))
        }
    }

    // MARK: Setters

    /// SET_ADVERT_NAME (at most 31 bytes: the radio truncates longer names).
    @discardableResult
    public func setName(_ name: String) async throws -> SettingChange {
        try await apply("name", name, format: { $0 }, write: .setAdvertName(name), read: { try await readSelfInfo().name }, accepts: ==)
    }

    /// SET_RADIO_PARAMS. The frame's last byte is client repeat, and the firmware turns repeat
    /// off when it is missing: the radio's current repeat goes along (none on firmware that
    /// does not report it, before 1.13).
    @discardableResult
    public func setRadioParams(_ params: RadioParams, as setting: String = "radio") async throws -> SettingChange {
        guard params.isInFirmwareRange else {
            throw SettingsError.outOfRange(setting: setting, value: SettingFormat.radio(params),
                                           range: "150-2500 MHz, 7-500 kHz, SF 5-12, CR 5-8")
        }
        let clientRepeat = try await readDeviceInfo().clientRepeat
        return try await apply(setting, params, format: SettingFormat.radio, write: .setRadioParams(params, clientRepeat: clientRepeat),
                               read: { try await readSelfInfo().radio }, accepts: Self.sameRadio)
    }

    /// Client repeat (1.13.0+): SET_RADIO_PARAMS with the radio's parameters and the repeat byte,
    /// read back from DEVICE_INFO. The radio refuses it on a frequency not in its repeat table.
    @discardableResult
    public func setClientRepeat(_ on: Bool) async throws -> SettingChange {
        guard try await readDeviceInfo().clientRepeat != nil else { throw SettingsError.unsupported(setting: "client_repeat") }
        let radio = try await readSelfInfo().radio
        do {
            return try await apply("client_repeat", on, format: SettingFormat.onOff, write: .setRadioParams(radio, clientRepeat: on),
                                   read: { try await readDeviceInfo().clientRepeat ?? false }, accepts: ==)
        } catch SettingsError.refused(let setting, let value, .illegalArgument) where on {
            throw SettingsError.repeatNotAllowed(setting: setting, value: value, frequency: SettingFormat.milli(radio.frequencyKHz))
        }
    }

    /// SET_RADIO_TX_POWER, dBm from -9 to the board's maximum.
    @discardableResult
    public func setTxPower(_ dBm: Int8) async throws -> SettingChange {
        let max = selfInfo.maxTxPower
        guard dBm >= -9, dBm <= max else { throw SettingsError.outOfRange(setting: "tx", value: "\(dBm)", range: "-9 to \(max) dBm (this board's maximum)") }
        return try await apply("tx", dBm, format: { "\($0)" }, write: .setRadioTxPower(dBm), read: { try await readSelfInfo().txPower }, accepts: ==)
    }

    /// SET_ADVERT_LATLON. The wire carries degrees × 1e6: a read-back within 1e-6 degrees matches.
    @discardableResult
    public func setLocation(_ position: Coordinates, as setting: String = "coords") async throws -> SettingChange {
        guard abs(Int64(position.latitudeE6)) <= 90_000_000, abs(Int64(position.longitudeE6)) <= 180_000_000 else {
            throw SettingsError.outOfRange(setting: setting, value: SettingFormat.coordinates(position), range: "latitude -90 to 90, longitude -180 to 180")
        }
        return try await apply(setting, position, format: SettingFormat.coordinates, write: .setAdvertLatLon(position, altitude: nil),
                               read: { try await readSelfInfo().position }) { wanted, got in
            abs(Int64(wanted.latitudeE6) - Int64(got.latitudeE6)) <= 1 && abs(Int64(wanted.longitudeE6) - Int64(got.longitudeE6)) <= 1
        }
    }

    /// SET_OTHER_PARAMS: the frame carries all four, so those not given keep the radio's values.
    @discardableResult
    public func setOtherParams(manualAddContacts: Bool? = nil, telemetryModes: TelemetryModes? = nil, advertLocationPolicy: UInt8? = nil,
                               multiAcks: Bool? = nil, as setting: String = "other_params") async throws -> SettingChange {
        let now = try await readSelfInfo()
        if let policy = advertLocationPolicy, policy > 1 { throw SettingsError.outOfRange(setting: setting, value: "\(policy)", range: "0 (none) or 1 (share)") }
        if let modes = telemetryModes, [modes.base, modes.location, modes.environment].contains(where: { $0 > 2 }) || modes.rawValue > 0x3F {
            throw SettingsError.outOfRange(setting: setting, value: SettingFormat.telemetryModes(modes), range: "each mode 0 deny, 1 per contact flags, 2 all")
        }
        let wanted = OtherParams(manualAddContacts: (manualAddContacts ?? (now.manualAddContacts & 1 == 1)) ? 1 : 0,
                                 telemetryModes: telemetryModes ?? now.telemetryModes,
                                 advertLocationPolicy: advertLocationPolicy ?? now.advertLocationPolicy,
                                 multiAcks: (multiAcks ?? (now.multiAcks != 0)) ? 1 : 0)
        return try await apply(setting, wanted, format: SettingFormat.otherParams, write: .setOtherParams(wanted),
                               read: { Self.otherParams(try await readSelfInfo()) }, accepts: ==)
    }

    /// SET_AUTOADD_CONFIG, read back with GET_AUTOADD_CONFIG (max hops only from 1.14.0).
    @discardableResult
    public func setAutoAdd(_ config: AutoAddConfig, as setting: String = "autoadd") async throws -> SettingChange {
        try await apply(setting, config, format: SettingFormat.autoAdd, write: .setAutoAddConfig(config), read: { try await readAutoAdd() },
                        accepts: Self.sameAutoAdd)
    }

    /// SET_TUNING_PARAMS, read back with GET_TUNING_PARAMS.
    @discardableResult
    public func setTuning(_ tuning: TuningParams, as setting: String = "tuning") async throws -> SettingChange {
        try await apply(setting, tuning, format: SettingFormat.tuning,
                        write: .setTuningParams(rxDelayBase: tuning.rxDelayBase, airtimeFactor: tuning.airtimeFactor),
                        read: { try await readTuning() }, accepts: ==)
    }

    /// SET_PATH_HASH_MODE: 0, 1 or 2 (1-, 2- or 3-byte hop hashes for our floods).
    @discardableResult
    public func setPathHashMode(_ mode: UInt8) async throws -> SettingChange {
        guard mode < 3 else { throw SettingsError.outOfRange(setting: "path_hash_mode", value: "\(mode)", range: "0, 1 or 2") }
        return try await apply("path_hash_mode", mode as UInt8?, format: SettingFormat.optional, write: .setPathHashMode(mode),
                               read: { try await readDeviceInfo().pathHashMode }, accepts: ==)
    }

    /// SET_DEVICE_PIN: 0 (the board's default) or six digits; used from the next boot.
    @discardableResult
    public func setDevicePin(_ pin: UInt32) async throws -> SettingChange {
        guard pin == 0 || (100_000...999_999).contains(pin) else {
            throw SettingsError.outOfRange(setting: "pin", value: "\(pin)", range: "0 (default) or 100000-999999")
        }
        return try await apply("pin", pin as UInt32?, format: SettingFormat.optional, write: .setDevicePin(pin),
                               read: { try await readDeviceInfo().blePin }, accepts: ==)
    }

    /// SET_DEFAULT_FLOOD_SCOPE (nil clears it), read back with GET_DEFAULT_FLOOD_SCOPE.
    @discardableResult
    public func setDefaultFloodScope(_ scope: FloodScope?) async throws -> SettingChange {
        if let scope, scope.name.isEmpty || scope.name.utf8.count > 30 || scope.key.count != 16 {
            throw SettingsError.outOfRange(setting: "default_scope", value: scope.name, range: "a name of 1-30 bytes and a 16-byte key")
        }
        return try await apply("default_scope", scope, format: SettingFormat.scope, write: .setDefaultFloodScope(scope),
                               read: { try await readDefaultFloodScope() }, accepts: ==)
    }

    /// SET_CUSTOM_VAR (`name:value`), read back with GET_CUSTOM_VARS.
    @discardableResult
    public func setCustomVar(_ name: String, _ value: String) async throws -> SettingChange {
        let setting = "var.\(name)"
        guard !name.isEmpty, !name.contains(":"), !name.contains(","), !value.contains(",") else {
            throw SettingsError.invalidValue(setting: setting, value: value, expected: "a name and value without ':' or ','")
        }
        return try await apply(setting, value as String?, format: SettingFormat.optional, write: .setCustomVar(name: name, value: value),
                               read: { try await readCustomVars().first(where: { $0.name == name })?.value },
                               accepts: ==)
    }

    // MARK: Comparisons

    /// The firmware may keep frequency and bandwidth as floats: a read-back 1 kHz / 1 Hz off matches.
    static func sameRadio(_ a: RadioParams, _ b: RadioParams) -> Bool {
        abs(Int64(a.frequencyKHz) - Int64(b.frequencyKHz)) <= 1 && abs(Int64(a.bandwidthHz) - Int64(b.bandwidthHz)) <= 1
            && a.spreadingFactor == b.spreadingFactor && a.codingRate == b.codingRate
    }

    /// Max hops is compared only when both sides have it (it came with 1.14.0).
    static func sameAutoAdd(_ wanted: AutoAddConfig, _ got: AutoAddConfig) -> Bool {
        guard wanted.bitmask == got.bitmask else { return false }
        guard let w = wanted.maxHops, let g = got.maxHops else { return true }
        return w == g
    }

    static func otherParams(_ info: SelfInfo) -> OtherParams {
        OtherParams(manualAddContacts: info.manualAddContacts & 1, telemetryModes: info.telemetryModes,
                    advertLocationPolicy: info.advertLocationPolicy, multiAcks: info.multiAcks != 0 ? 1 : 0)
    }
}
