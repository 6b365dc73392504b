import MeshCodec

/// One setting as `meshport get/set` names it.
public struct SettingDescriptor: Hashable, Sendable {
    public let name: String
    /// text, integer, decimal, on/off, choice, list.
    public let type: String
    /// What values it takes, for help and errors.
    public let range: String
    public let summary: String
    public let isWritable: Bool
    /// Values offered by name (radio: the regional presets); any other value in `range` is fine too.
    public let choices: [SettingChoice]
}

/// A value a setting offers by name.
public struct SettingChoice: Hashable, Sendable {
    public let value: String
    public let label: String

    public init(value: String, label: String) {
        self.value = value
        self.label = label
    }
}

/// A setting by name: how to show it from `RadioSettings`, and how to parse and set it.
struct SettingEntry: Sendable {
    typealias Write = @Sendable (SettingsService, String) async throws -> SettingChange
    let descriptor: SettingDescriptor
    /// nil: the firmware does not report it.
    let read: @Sendable (RadioSettings) -> String?
    let write: Write?

    init(_ name: String, _ type: String, _ range: String, _ summary: String, choices: [SettingChoice] = [],
         read: @escaping @Sendable (RadioSettings) -> String?, write: Write? = nil) {
        descriptor = SettingDescriptor(name: name, type: type, range: range, summary: summary, isWritable: write != nil, choices: choices)
        self.read = read
        self.write = write
    }

    func invalid(_ value: String) -> SettingsError {
        .invalidValue(setting: descriptor.name, value: value, expected: "\(descriptor.type) (\(descriptor.range))")
    }
}

/// The settings `get`/`set` know, in the order help lists them.
enum SettingsCatalog {
    static let entries: [SettingEntry] = [
        SettingEntry("name", "text", "1-31 bytes", "the node name others see in adverts", read: { $0.name }) { svc, v in
            guard !v.isEmpty, v.utf8.count <= 31 else { throw SettingsError.outOfRange(setting: "name", value: v, range: "1-31 bytes of UTF-8") }
            return try await svc.setName(v)
        },
        SettingEntry("radio", "list", "a regional preset (`meshport presets`), or freq MHz,bw kHz,sf,cr e.g. 869.618,62.5,8,8", "LoRa parameters",
                     choices: RadioPreset.all.map { SettingChoice(value: $0.values, label: $0.name) },
                     read: { SettingFormat.radio($0.radio) }) { svc, v in
            if let preset = RadioPreset.named(v) { return try await svc.setRadioParams(preset.params, as: "radio") }
            let parts = v.split(separator: ",").map(String.init)
            guard parts.count == 4, let f = SettingFormat.parseMilli(parts[0]), let b = SettingFormat.parseMilli(parts[1]),
                  let sf = UInt8(parts[2].trimmingCharacters(in: .whitespaces)), let cr = UInt8(parts[3].trimmingCharacters(in: .whitespaces)) else {
                throw entry("radio").invalid(v)
            }
            return try await svc.setRadioParams(RadioParams(frequencyKHz: f, bandwidthHz: b, spreadingFactor: sf, codingRate: cr), as: "radio")
        },
        radioField("freq", "decimal", "150-2500 MHz", "frequency", read: { SettingFormat.milli($0.frequencyKHz) }) { p, v in
            guard let f = SettingFormat.parseMilli(v) else { return nil }
            p.frequencyKHz = f
            return p
        },
        radioField("bw", "decimal", "7-500 kHz", "bandwidth", read: { SettingFormat.milli($0.bandwidthHz) }) { p, v in
            guard let b = SettingFormat.parseMilli(v) else { return nil }
            p.bandwidthHz = b
            return p
        },
        radioField("sf", "integer", "5-12", "spreading factor", read: { "\($0.spreadingFactor)" }) { p, v in
            guard let sf = UInt8(v) else { return nil }
            p.spreadingFactor = sf
            return p
        },
        radioField("cr", "integer", "5-8", "coding rate 4/5 to 4/8", read: { "\($0.codingRate)" }) { p, v in
            guard let cr = UInt8(v) else { return nil }
            p.codingRate = cr
            return p
        },
        SettingEntry("client_repeat", "on/off", "on only on an allowed repeat frequency", "the radio repeats packets (1.13.0+)",
                     read: { $0.clientRepeat.map(SettingFormat.onOff) }) { svc, v in
            guard let on = SettingFormat.parseBool(v) else { throw entry("client_repeat").invalid(v) }
            return try await svc.setClientRepeat(on)
        },
        SettingEntry("tx", "integer", "-9 to the board's max_tx dBm", "transmit power", read: { "\($0.txPower)" }) { svc, v in
            guard let dBm = Int8(v.trimmingCharacters(in: .whitespaces)) else { throw entry("tx").invalid(v) }
            return try await svc.setTxPower(dBm)
        },
        SettingEntry("max_tx", "integer", "read-only", "the board's highest transmit power, dBm", read: { "\($0.maxTxPower)" }),
        SettingEntry("coords", "list", "lat,lon in degrees", "the position adverts may share", read: { SettingFormat.coordinates($0.position) }) { svc, v in
            let parts = v.split(separator: ",").map(String.init)
            guard parts.count == 2, let lat = SettingFormat.parseDegrees(parts[0]), let lon = SettingFormat.parseDegrees(parts[1]) else {
                throw entry("coords").invalid(v)
            }
            return try await svc.setLocation(Coordinates(latitudeE6: lat, longitudeE6: lon), as: "coords")
        },
        SettingEntry("lat", "decimal", "-90 to 90 degrees", "latitude", read: { SettingFormat.degrees($0.position.latitudeE6) }) { svc, v in
            guard let lat = SettingFormat.parseDegrees(v) else { throw entry("lat").invalid(v) }
            var position = try await svc.readSelfInfo().position
            position.latitudeE6 = lat
            return try await svc.setLocation(position, as: "lat")
        },
        SettingEntry("lon", "decimal", "-180 to 180 degrees", "longitude", read: { SettingFormat.degrees($0.position.longitudeE6) }) { svc, v in
            guard let lon = SettingFormat.parseDegrees(v) else { throw entry("lon").invalid(v) }
            var position = try await svc.readSelfInfo().position
            position.longitudeE6 = lon
            return try await svc.setLocation(position, as: "lon")
        },
        SettingEntry("multi_acks", "on/off", "on or off", "send an extra ACK for each DM", read: { SettingFormat.onOff($0.multiAcks) }) { svc, v in
            guard let on = SettingFormat.parseBool(v) else { throw entry("multi_acks").invalid(v) }
            return try await svc.setOtherParams(multiAcks: on, as: "multi_acks")
        },
        SettingEntry("advert_loc_policy", "choice", "none or share", "whether adverts carry the position",
                     read: { $0.advertLocationPolicy == 0 ? "none" : $0.advertLocationPolicy == 1 ? "share" : "\($0.advertLocationPolicy)" }) { svc, v in
            let policy: UInt8? = switch v.trimmingCharacters(in: .whitespaces).lowercased() {
            case "none", "0": 0
            case "share", "1": 1
            default: nil
            }
            guard let policy else { throw entry("advert_loc_policy").invalid(v) }
            return try await svc.setOtherParams(advertLocationPolicy: policy, as: "advert_loc_policy")
        },
        SettingEntry("manual_add_contacts", "on/off", "on or off", "add heard nodes only as autoadd_config allows",
                     read: { SettingFormat.onOff($0.manualAddContacts) }) { svc, v in
            guard let on = SettingFormat.parseBool(v) else { throw entry("manual_add_contacts").invalid(v) }
            return try await svc.setOtherParams(manualAddContacts: on, as: "manual_add_contacts")
        },
        telemetryField("telemetry_mode_base", "who may read battery telemetry", \.base) { TelemetryModes(base: $1, location: $0.location, environment: $0.environment) },
        telemetryField("telemetry_mode_loc", "who may read location telemetry", \.location) { TelemetryModes(base: $0.base, location: $1, environment: $0.environment) },
        telemetryField("telemetry_mode_env", "who may read sensor telemetry", \.environment) { TelemetryModes(base: $0.base, location: $0.location, environment: $1) },
        SettingEntry("autoadd_config", "integer", "0-31 or 0x00-0x1f: bit0 overwrite oldest, bits 1-4 chat/repeater/room/sensor",
                     "which node types manual-add mode still adds", read: { $0.autoAdd.map { SettingFormat.hexByte($0.bitmask) } }) { svc, v in
            guard let mask = SettingFormat.parseByte(v) else { throw entry("autoadd_config").invalid(v) }
            guard mask <= 0x1F else { throw SettingsError.outOfRange(setting: "autoadd_config", value: v, range: "0-31") }
            let maxHops = try await svc.readAutoAdd().maxHops
            return try await svc.setAutoAdd(AutoAddConfig(bitmask: mask, maxHops: maxHops), as: "autoadd_config")
        },
        SettingEntry("autoadd_max_hops", "integer", "0 (any) to 64", "adverts from further away are not added (1.14.0+)",
                     read: { $0.autoAdd?.maxHops.map { "\($0)" } }) { svc, v in
            guard let hops = UInt8(v.trimmingCharacters(in: .whitespaces)) else { throw entry("autoadd_max_hops").invalid(v) }
            guard hops <= 64 else { throw SettingsError.outOfRange(setting: "autoadd_max_hops", value: v, range: "0-64") }
            let mask = try await svc.readAutoAdd().bitmask
            return try await svc.setAutoAdd(AutoAddConfig(bitmask: mask, maxHops: hops), as: "autoadd_max_hops")
        },
        tuningField("rx_delay", "0-20 s", "receive delay base", \.rxDelayBase, max: 20_000) { TuningParams(rxDelayBase: $1, airtimeFactor: $0.airtimeFactor) },
        tuningField("airtime_factor", "0-9", "airtime factor (duty-cycle spacing)", \.airtimeFactor, max: 9_000) {
            TuningParams(rxDelayBase: $0.rxDelayBase, airtimeFactor: $1)
        },
        SettingEntry("path_hash_mode", "integer", "0, 1 or 2 (1-, 2-, 3-byte hop hashes)", "hop hash size of our floods (1.14.0+)",
                     read: { $0.pathHashMode.map { "\($0)" } }) { svc, v in
            guard let mode = UInt8(v.trimmingCharacters(in: .whitespaces)) else { throw entry("path_hash_mode").invalid(v) }
            return try await svc.setPathHashMode(mode)
        },
        SettingEntry("pin", "integer", "0 (default) or 100000-999999", "BLE pairing PIN, used from the next boot", read: { $0.blePin.map { "\($0)" } }) { svc, v in
            guard let pin = UInt32(v.trimmingCharacters(in: .whitespaces)) else { throw entry("pin").invalid(v) }
            return try await svc.setDevicePin(pin)
        },
        SettingEntry("default_scope", "text", "a region name of 1-30 bytes, or none", "flood scope used when none is set for the session (1.15.0+)",
                     read: { SettingFormat.scope($0.defaultFloodScope) }) { svc, v in
            let name = v.trimmingCharacters(in: .whitespaces)
            return try await svc.setDefaultFloodScope(name.isEmpty || name == "none" ? nil : FloodScope(region: name))
        },
        SettingEntry("allowed_repeat_freq", "list", "read-only", "frequencies where client_repeat may be on (MHz)",
                     read: { $0.allowedRepeatFrequencies.map { $0.map { r in r.lowerKHz == r.upperKHz ? SettingFormat.milli(r.lowerKHz) : "\(SettingFormat.milli(r.lowerKHz))-\(SettingFormat.milli(r.upperKHz))" }.joined(separator: ",") } }),
    ]

    static func entry(_ name: String) -> SettingEntry {
        // Only called with names of the table above.
        entries.first { $0.descriptor.name == name } ?? entries[0]
    }

    private static func radioField(_ name: String, _ type: String, _ range: String, _ summary: String, read: @escaping @Sendable (RadioParams) -> String,
                                   parse: @escaping @Sendable (inout RadioParams, String) -> RadioParams?) -> SettingEntry {
        SettingEntry(name, type, range, summary, read: { read($0.radio) }) { svc, v in
            var params = try await svc.readSelfInfo().radio
            guard let changed = parse(&params, v.trimmingCharacters(in: .whitespaces)) else { throw entry(name).invalid(v) }
            return try await svc.setRadioParams(changed, as: name)
        }
    }

    private static func telemetryField(_ name: String, _ summary: String, _ field: KeyPath<TelemetryModes, UInt8> & Sendable,
                                       with: @escaping @Sendable (TelemetryModes, UInt8) -> TelemetryModes) -> SettingEntry {
        SettingEntry(name, "choice", "deny, flags (per contact) or all", summary, read: { SettingFormat.telemetryMode($0.telemetryModes[keyPath: field]) }) { svc, v in
            guard let mode = SettingFormat.parseTelemetryMode(v) else { throw entry(name).invalid(v) }
            let modes = try await svc.readSelfInfo().telemetryModes
            return try await svc.setOtherParams(telemetryModes: with(modes, mode), as: name)
        }
    }

    private static func tuningField(_ name: String, _ range: String, _ summary: String, _ field: KeyPath<TuningParams, UInt32> & Sendable, max: UInt32,
                                    with: @escaping @Sendable (TuningParams, UInt32) -> TuningParams) -> SettingEntry {
        SettingEntry(name, "decimal", range, summary, read: { $0.tuning.map { SettingFormat.milli($0[keyPath: field]) } }) { svc, v in
            guard let value = SettingFormat.parseMilli(v) else { throw entry(name).invalid(v) }
            guard value <= max else { throw SettingsError.outOfRange(setting: name, value: v, range: range) }
            let tuning = try await svc.readTuning()
            return try await svc.setTuning(with(tuning, value), as: name)
        }
    }
}

extension SettingsService {
    /// Every setting `get`/`set` know, with its type and range.
    public static var settings: [SettingDescriptor] { SettingsCatalog.entries.map(\.descriptor) }

    /// One setting as text, as `set` would read it.
    public func get(_ name: String) async throws -> String {
        let entry = try Self.entry(name)
        guard let value = entry.read(try await current()) else { throw SettingsError.unsupported(setting: name) }
        return value
    }

    /// Every setting the radio reports, by name.
    public func all() async throws -> [(name: String, value: String)] {
        let settings = try await current()
        return SettingsCatalog.entries.compactMap { e in e.read(settings).map { (e.descriptor.name, $0) } }
    }

    /// Parses `value` for setting `name`, sets it and verifies it (see the typed setters).
    @discardableResult
    public func set(_ name: String, _ value: String) async throws -> SettingChange {
        let entry = try Self.entry(name)
        guard let write = entry.write else { throw SettingsError.readOnly(setting: name) }
        return try await write(self, value)
    }

    private static func entry(_ name: String) throws -> SettingEntry {
        guard let entry = SettingsCatalog.entries.first(where: { $0.descriptor.name == name.lowercased() }) else {
            throw SettingsError.unknownSetting(name, known: SettingsCatalog.entries.map(\.descriptor.name))
        }
        return entry
    }
}
