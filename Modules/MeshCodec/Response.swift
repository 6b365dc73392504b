/// A response frame, radio -> app, answering a command (Docs/protocol.md §4).
public enum Response: Hashable, Sendable {
    /// `value` is never sent by the companion firmware; decoded when present (5-byte OK).
    case ok(value: UInt32?)
    case error(RadioError)
    /// Total contacts on the radio (not the filtered count).
    case contactsStart(total: UInt32)
    case contact(Contact)
    /// Highest lastmod among the contacts just sent: the next `since`.
    case endOfContacts(lastModified: UInt32)
    case selfInfo(SelfInfo)
    case sent(Sent)
    /// Codes 0x07 (legacy) or 0x10 (V3) by the message's format.
    case contactMessage(ContactMessage)
    /// Codes 0x08 (legacy) or 0x11 (V3).
    case channelMessage(ChannelMessage)
    case currentTime(UInt32)
    case noMoreMessages
    /// A raw signed advert packet (see `AdvertPacket`).
    case exportContact(advert: [UInt8])
    case batteryAndStorage(BatteryAndStorage)
    case deviceInfo(DeviceInfo)
    case privateKey([UInt8])
    case disabled
    case channelInfo(ChannelInfo)
    case signStart(maxLength: UInt32)
    case signature([UInt8])
    case customVars([CustomVar])
    case advertPath(AdvertPath)
    /// Both values × 1000.
    case tuningParams(rxDelayBase: UInt32, airtimeFactor: UInt32)
    case stats(Stats)
    case autoAddConfig(AutoAddConfig)
    case allowedRepeatFreq([FrequencyRange])
    case channelData(ChannelDataMessage)
    /// nil when no default scope is set (a 1-byte frame).
    case defaultFloodScope(FloodScope?)
    case unknown(code: UInt8, payload: [UInt8])

    public var code: UInt8 {
        let c: ResponseCode
        switch self {
        case .ok: c = .ok
        case .error: c = .err
        case .contactsStart: c = .contactsStart
        case .contact: c = .contact
        case .endOfContacts: c = .endOfContacts
        case .selfInfo: c = .selfInfo
        case .sent: c = .sent
        case let .contactMessage(m): c = m.format == .v3 ? .contactMessageV3 : .contactMessageV1
        case let .channelMessage(m): c = m.format == .v3 ? .channelMessageV3 : .channelMessageV1
        case .currentTime: c = .currentTime
        case .noMoreMessages: c = .noMoreMessages
        case .exportContact: c = .exportContact
        case .batteryAndStorage: c = .batteryAndStorage
        case .deviceInfo: c = .deviceInfo
        case .privateKey: c = .privateKey
        case .disabled: c = .disabled
        case .channelInfo: c = .channelInfo
        case .signStart: c = .signStart
        case .signature: c = .signature
        case .customVars: c = .customVars
        case .advertPath: c = .advertPath
        case .tuningParams: c = .tuningParams
        case .stats: c = .stats
        case .autoAddConfig: c = .autoAddConfig
        case .allowedRepeatFreq: c = .allowedRepeatFreq
        case .channelData: c = .channelData
        case .defaultFloodScope: c = .defaultFloodScope
        case let .unknown(code, _): return code
        }
        return c.rawValue
    }

    public var name: String { ResponseCode(rawValue: code)?.firmwareName ?? "response 0x\(Hex.encode([code]))" }
}

/// BATT_AND_STORAGE (12); storage fields since v1.7.1.
public struct BatteryAndStorage: Hashable, Sendable {
    public var millivolts: UInt16
    public var storageUsedKiB: UInt32?
    public var storageTotalKiB: UInt32?

    public init(millivolts: UInt16, storageUsedKiB: UInt32? = nil, storageTotalKiB: UInt32? = nil) {
        self.millivolts = millivolts
        self.storageUsedKiB = storageUsedKiB
        self.storageTotalKiB = storageTotalKiB
    }
}

/// One `name:value` entry of CUSTOM_VARS (21).
public struct CustomVar: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    static func parseList(_ text: String) -> [CustomVar] {
        text.unicodeScalars.split(separator: ",").map { scalars in
            let entry = String(Substring(scalars))
            guard let (name, value) = entry.splitOnce(at: ":") else { return CustomVar(name: entry, value: "") }
            return CustomVar(name: name, value: value)
        }
    }

    static func formatList(_ vars: [CustomVar]) -> String {
        vars.map { "\($0.name):\($0.value)" }.joined(separator: ",")
    }
}

/// ADVERT_PATH (22): when the advert was heard (radio clock) and the path it came by.
public struct AdvertPath: Hashable, Sendable {
    public var heardAt: UInt32
    public var path: Path

    public init(heardAt: UInt32, path: Path) {
        self.heardAt = heardAt
        self.path = path
    }
}

/// One allowed client-repeat frequency range, kHz.
public struct FrequencyRange: Hashable, Sendable {
    public var lowerKHz: UInt32
    public var upperKHz: UInt32

    public init(lowerKHz: UInt32, upperKHz: UInt32) {
        self.lowerKHz = lowerKHz
        self.upperKHz = upperKHz
    }
}

extension String {
    /// The text before and after the first `separator`, found among Unicode scalars as the
    /// firmware finds it among bytes: a Character search misses a separator that a preceding
    /// prepend mark (U+0600 and the like) joins into one grapheme.
    func splitOnce(at separator: Unicode.Scalar) -> (String, String)? {
        let scalars = unicodeScalars
        guard let at = scalars.firstIndex(of: separator) else { return nil }
        return (String(Substring(scalars[..<at])), String(Substring(scalars[scalars.index(after: at)...])))
    }
}
