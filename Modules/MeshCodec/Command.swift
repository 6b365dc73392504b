/// A command frame, app -> radio (Docs/protocol.md §3). The app side encodes these; the radio
/// side (MeshSim) decodes them.
public enum Command: Hashable, Sendable {
    case appStart(AppStart)
    case sendTextMessage(SendTextMessage)
    case sendChannelTextMessage(SendChannelTextMessage)
    /// Only contacts with `lastmod > since` are streamed.
    case getContacts(since: UInt32?)
    case getDeviceTime
    case setDeviceTime(UInt32)
    case sendSelfAdvert(flood: Bool)
    case setAdvertName(String)
    case addUpdateContact(AddUpdateContact)
    case syncNextMessage
    case setRadioParams(RadioParams, clientRepeat: Bool?)
    case setRadioTxPower(Int8)
    case resetPath(PublicKey)
    case setAdvertLatLon(Coordinates, altitude: Int32?)
    case removeContact(PublicKey)
    case shareContact(PublicKey)
    /// nil exports the radio's own advert.
    case exportContact(PublicKey?)
    case importContact(advert: [UInt8])
    case reboot
    case getBatteryAndStorage
    /// Both values × 1000.
    case setTuningParams(rxDelayBase: UInt32, airtimeFactor: UInt32)
    case deviceQuery(appTargetVersion: UInt8)
    case exportPrivateKey
    case importPrivateKey([UInt8])
    case sendRawData(path: [UInt8], payload: [UInt8])
    case sendLogin(PublicKey, password: String)
    case sendStatusRequest(PublicKey)
    case hasConnection(PublicKey)
    case logout(PublicKey)
    case getContactByKey(PublicKey)
    case getChannel(UInt8)
    case setChannel(ChannelInfo)
    case signStart
    case signData([UInt8])
    case signFinish
    case sendTracePath(TraceRequest)
    case setDevicePin(UInt32)
    case setOtherParams(OtherParams)
    /// nil key: the radio's own telemetry (a 4-byte frame).
    case sendTelemetryRequest(PublicKey?, reserved: [UInt8])
    case getCustomVars
    case setCustomVar(name: String, value: String)
    case getAdvertPath(PublicKey, reserved: UInt8)
    case getTuningParams
    case sendBinaryRequest(PublicKey, data: [UInt8])
    case factoryReset
    case sendPathDiscoveryRequest(PublicKey)
    case setFloodScopeKey(FloodScopeOverride)
    case sendControlData([UInt8])
    case getStats(StatsType)
    case sendAnonRequest(PublicKey, data: [UInt8])
    case setAutoAddConfig(AutoAddConfig)
    case getAutoAddConfig
    case getAllowedRepeatFreq
    case setPathHashMode(UInt8)
    case sendChannelData(SendChannelData)
    /// nil clears the default scope.
    case setDefaultFloodScope(FloodScope?)
    case getDefaultFloodScope
    case sendRawPacket(priority: UInt8, packet: [UInt8])
    /// A code this codec does not know, kept whole.
    case unknown(code: UInt8, payload: [UInt8])

    public var code: UInt8 {
        switch self {
        case .appStart: CommandCode.appStart.rawValue
        case .sendTextMessage: CommandCode.sendTextMessage.rawValue
        case .sendChannelTextMessage: CommandCode.sendChannelTextMessage.rawValue
        case .getContacts: CommandCode.getContacts.rawValue
        case .getDeviceTime: CommandCode.getDeviceTime.rawValue
        case .setDeviceTime: CommandCode.setDeviceTime.rawValue
        case .sendSelfAdvert: CommandCode.sendSelfAdvert.rawValue
        case .setAdvertName: CommandCode.setAdvertName.rawValue
        case .addUpdateContact: CommandCode.addUpdateContact.rawValue
        case .syncNextMessage: CommandCode.syncNextMessage.rawValue
        case .setRadioParams: CommandCode.setRadioParams.rawValue
        case .setRadioTxPower: CommandCode.setRadioTxPower.rawValue
        case .resetPath: CommandCode.resetPath.rawValue
        case .setAdvertLatLon: CommandCode.setAdvertLatLon.rawValue
        case .removeContact: CommandCode.removeContact.rawValue
        case .shareContact: CommandCode.shareContact.rawValue
        case .exportContact: CommandCode.exportContact.rawValue
        case .importContact: CommandCode.importContact.rawValue
        case .reboot: CommandCode.reboot.rawValue
        case .getBatteryAndStorage: CommandCode.getBatteryAndStorage.rawValue
        case .setTuningParams: CommandCode.setTuningParams.rawValue
        case .deviceQuery: CommandCode.deviceQuery.rawValue
        case .exportPrivateKey: CommandCode.exportPrivateKey.rawValue
        case .importPrivateKey: CommandCode.importPrivateKey.rawValue
        case .sendRawData: CommandCode.sendRawData.rawValue
        case .sendLogin: CommandCode.sendLogin.rawValue
        case .sendStatusRequest: CommandCode.sendStatusRequest.rawValue
        case .hasConnection: CommandCode.hasConnection.rawValue
        case .logout: CommandCode.logout.rawValue
        case .getContactByKey: CommandCode.getContactByKey.rawValue
        case .getChannel: CommandCode.getChannel.rawValue
        case .setChannel: CommandCode.setChannel.rawValue
        case .signStart: CommandCode.signStart.rawValue
        case .signData: CommandCode.signData.rawValue
        case .signFinish: CommandCode.signFinish.rawValue
        case .sendTracePath: CommandCode.sendTracePath.rawValue
        case .setDevicePin: CommandCode.setDevicePin.rawValue
        case .setOtherParams: CommandCode.setOtherParams.rawValue
        case .sendTelemetryRequest: CommandCode.sendTelemetryRequest.rawValue
        case .getCustomVars: CommandCode.getCustomVars.rawValue
        case .setCustomVar: CommandCode.setCustomVar.rawValue
        case .getAdvertPath: CommandCode.getAdvertPath.rawValue
        case .getTuningParams: CommandCode.getTuningParams.rawValue
        case .sendBinaryRequest: CommandCode.sendBinaryRequest.rawValue
        case .factoryReset: CommandCode.factoryReset.rawValue
        case .sendPathDiscoveryRequest: CommandCode.sendPathDiscoveryRequest.rawValue
        case .setFloodScopeKey: CommandCode.setFloodScopeKey.rawValue
        case .sendControlData: CommandCode.sendControlData.rawValue
        case .getStats: CommandCode.getStats.rawValue
        case .sendAnonRequest: CommandCode.sendAnonRequest.rawValue
        case .setAutoAddConfig: CommandCode.setAutoAddConfig.rawValue
        case .getAutoAddConfig: CommandCode.getAutoAddConfig.rawValue
        case .getAllowedRepeatFreq: CommandCode.getAllowedRepeatFreq.rawValue
        case .setPathHashMode: CommandCode.setPathHashMode.rawValue
        case .sendChannelData: CommandCode.sendChannelData.rawValue
        case .setDefaultFloodScope: CommandCode.setDefaultFloodScope.rawValue
        case .getDefaultFloodScope: CommandCode.getDefaultFloodScope.rawValue
        case .sendRawPacket: CommandCode.sendRawPacket.rawValue
        case let .unknown(code, _): code
        }
    }

    /// The firmware's name of this command, for errors ("no answer to CMD_APP_START ...").
    public var name: String { CommandCode(rawValue: code)?.firmwareName ?? "command 0x\(Hex.encode([code]))" }
}

/// APP_START: bytes 1-7 are ignored by the firmware; clients send 0x03 then six spaces.
public struct AppStart: Hashable, Sendable {
    public static let defaultReserved: [UInt8] = [0x03, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]
    public var reserved: [UInt8]
    public var appName: String

    public init(appName: String, reserved: [UInt8] = AppStart.defaultReserved) {
        self.appName = appName
        self.reserved = reserved
    }
}

public struct SendTextMessage: Hashable, Sendable {
    /// Firmware limit on text bytes (158 when attempt > 3).
    public static let maxTextBytes = 160

    public var textType: TextType
    public var attempt: UInt8
    public var timestamp: UInt32
    public var recipient: KeyPrefix
    public var text: String

    public init(textType: TextType = .plain, attempt: UInt8 = 0, timestamp: UInt32, recipient: KeyPrefix, text: String) {
        self.textType = textType
        self.attempt = attempt
        self.timestamp = timestamp
        self.recipient = recipient
        self.text = text
    }
}

public struct SendChannelTextMessage: Hashable, Sendable {
    /// `"<name>: <text>"` must fit in 160 bytes on air.
    public static let maxTotalBytes = 160

    public var textType: TextType
    public var channelIndex: UInt8
    public var timestamp: UInt32
    public var text: String

    public init(textType: TextType = .plain, channelIndex: UInt8, timestamp: UInt32, text: String) {
        self.textType = textType
        self.channelIndex = channelIndex
        self.timestamp = timestamp
        self.text = text
    }
}

/// ADD_UPDATE_CONTACT: the contact record without its code byte. Location and lastmod are
/// optional on the wire (the radio then keeps 0 / uses its clock).
public struct AddUpdateContact: Hashable, Sendable {
    public enum Layout: Hashable, Sendable {
        /// 136 bytes: up to last_advert.
        case base
        /// 144 bytes: with latitude and longitude.
        case withPosition
        /// 148 bytes: with lastmod (1.8.0+).
        case full
    }

    public var contact: Contact
    public var layout: Layout

    public init(contact: Contact, layout: Layout = .full) {
        self.contact = contact
        self.layout = layout
    }
}

/// SEND_TRACE_PATH.
public struct TraceRequest: Hashable, Sendable {
    public var tag: UInt32
    public var authCode: UInt32
    /// Bits 0-1: hash bytes per hop = 1 << sz.
    public var flags: UInt8
    public var path: [UInt8]

    public init(tag: UInt32, authCode: UInt32, flags: UInt8 = 0, path: [UInt8]) {
        self.tag = tag
        self.authCode = authCode
        self.flags = flags
        self.path = path
    }
}

/// SET_OTHER_PARAMS: each later field exists only if all earlier ones are sent.
public struct OtherParams: Hashable, Sendable {
    public var manualAddContacts: UInt8
    public var telemetryModes: TelemetryModes?
    public var advertLocationPolicy: UInt8?
    public var multiAcks: UInt8?

    public init(manualAddContacts: UInt8, telemetryModes: TelemetryModes? = nil, advertLocationPolicy: UInt8? = nil, multiAcks: UInt8? = nil) {
        self.manualAddContacts = manualAddContacts
        self.telemetryModes = telemetryModes
        self.advertLocationPolicy = advertLocationPolicy
        self.multiAcks = multiAcks
    }
}

/// SET_FLOOD_SCOPE_KEY variants.
public enum FloodScopeOverride: Hashable, Sendable {
    /// Variant 0: a session scope key, or nil to fall back to the default scope.
    case session(key: [UInt8]?)
    /// Variant 1 (v12+): send floods unscoped.
    case unscoped
}

/// Auto-add bitmask (§7.2): bit 0 overwrite oldest, bits 1-4 chat/repeater/room/sensor.
public struct AutoAddConfig: Hashable, Sendable {
    public var bitmask: UInt8
    /// 0 = unlimited; nil in frames from before v1.14.
    public var maxHops: UInt8?

    public init(bitmask: UInt8, maxHops: UInt8? = nil) {
        self.bitmask = bitmask
        self.maxHops = maxHops
    }
}

/// SEND_CHANNEL_DATA. Note the path semantics: `.none` here asks the radio to flood.
public struct SendChannelData: Hashable, Sendable {
    public var channelIndex: UInt8
    public var path: Path
    public var dataType: UInt16
    public var payload: [UInt8]

    public init(channelIndex: UInt8, path: Path = .none, dataType: UInt16, payload: [UInt8]) {
        self.channelIndex = channelIndex
        self.path = path
        self.dataType = dataType
        self.payload = payload
    }
}
