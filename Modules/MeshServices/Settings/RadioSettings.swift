import MeshCodec

/// Everything settable on the radio, as it reports it: SELF_INFO (APP_START), DEVICE_INFO
/// and the getters. Optional fields are nil when the firmware is too old to report them.
public struct RadioSettings: Hashable, Sendable {
    public var name: String
    public var radio: RadioParams
    public var txPower: Int8
    /// The board's `MAX_LORA_TX_POWER`: the radio refuses more.
    public var maxTxPower: Int8
    public var position: Coordinates
    public var multiAcks: Bool
    /// 0 do not share the location in adverts, 1 share it.
    public var advertLocationPolicy: UInt8
    public var telemetryModes: TelemetryModes
    public var manualAddContacts: Bool
    /// GET_AUTOADD_CONFIG (1.12.0+).
    public var autoAdd: AutoAddConfig?
    /// GET_TUNING_PARAMS (1.7.3+).
    public var tuning: TuningParams?
    /// DEVICE_INFO byte 81 (1.14.0+).
    public var pathHashMode: UInt8?
    /// DEVICE_INFO byte 80 (1.13.0+).
    public var clientRepeat: Bool?
    /// The stored BLE PIN (0: not set).
    public var blePin: UInt32?
    /// GET_DEFAULT_FLOOD_SCOPE (1.15.0+): nil when none is set or the firmware has none.
    public var defaultFloodScope: FloodScope?
    /// GET_ALLOWED_REPEAT_FREQ (1.13.0+), read-only.
    public var allowedRepeatFrequencies: [FrequencyRange]?
    /// GET_CUSTOM_VARS (sensor settings, 1.6.0+).
    public var customVars: [CustomVar]?

    public init(selfInfo: SelfInfo, deviceInfo: DeviceInfo? = nil) {
        name = selfInfo.name
        radio = selfInfo.radio
        txPower = selfInfo.txPower
        maxTxPower = selfInfo.maxTxPower
        position = selfInfo.position
        multiAcks = selfInfo.multiAcks != 0
        advertLocationPolicy = selfInfo.advertLocationPolicy
        telemetryModes = selfInfo.telemetryModes
        manualAddContacts = selfInfo.manualAddContacts & 1 == 1
        pathHashMode = deviceInfo?.pathHashMode
        clientRepeat = deviceInfo?.clientRepeat
        blePin = deviceInfo?.blePin
    }
}

/// SET/GET_TUNING_PARAMS: both values × 1000 on the wire.
public struct TuningParams: Hashable, Sendable {
    /// Receive delay base, seconds × 1000 (the firmware keeps 0 to 20 s).
    public var rxDelayBase: UInt32
    /// Airtime factor × 1000 (the firmware keeps 0 to 9).
    public var airtimeFactor: UInt32

    public init(rxDelayBase: UInt32, airtimeFactor: UInt32) {
        self.rxDelayBase = rxDelayBase
        self.airtimeFactor = airtimeFactor
    }
}

/// What a setter did: the value before, what was written, and what the radio reports now.
public struct SettingChange: Hashable, Sendable {
    public var setting: String
    public var before: String
    public var wrote: String
    public var after: String
}

/// The radio's clock against this machine's (GET_DEVICE_TIME, SET_DEVICE_TIME).
public struct ClockSync: Hashable, Sendable {
    /// Radio and local clocks before, epoch seconds.
    public var radioBefore: UInt32
    public var local: UInt32
    /// Whether SET_DEVICE_TIME was sent.
    public var wasSet: Bool
    /// The radio's clock after (read back).
    public var radioAfter: UInt32

    /// Local minus radio, seconds (positive: the radio was behind).
    public var drift: Int64 { Int64(local) - Int64(radioBefore) }
}
