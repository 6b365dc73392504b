/// LoRa radio parameters as on the wire: frequency in kHz, bandwidth in Hz.
public struct RadioParams: Hashable, Sendable {
    public var frequencyKHz: UInt32
    public var bandwidthHz: UInt32
    public var spreadingFactor: UInt8
    public var codingRate: UInt8

    public init(frequencyKHz: UInt32, bandwidthHz: UInt32, spreadingFactor: UInt8, codingRate: UInt8) {
        self.frequencyKHz = frequencyKHz
        self.bandwidthHz = bandwidthHz
        self.spreadingFactor = spreadingFactor
        self.codingRate = codingRate
    }

    public var frequencyMHz: Double { Double(frequencyKHz) / 1000 }
    public var bandwidthKHz: Double { Double(bandwidthHz) / 1000 }

    /// The firmware's accepted ranges for SET_RADIO_PARAMS (Docs/protocol.md §3.1).
    public var isInFirmwareRange: Bool {
        (150_000...2_500_000).contains(frequencyKHz) && (7_000...500_000).contains(bandwidthHz)
            && (5...12).contains(spreadingFactor) && (5...8).contains(codingRate)
    }

    static func read(_ r: inout ByteReader) throws -> RadioParams {
        RadioParams(frequencyKHz: try r.u32("frequency"), bandwidthHz: try r.u32("bandwidth"),
                    spreadingFactor: try r.u8("spreading factor"), codingRate: try r.u8("coding rate"))
    }

    func write(_ w: inout ByteWriter) {
        w.u32(frequencyKHz)
        w.u32(bandwidthHz)
        w.u8(spreadingFactor)
        w.u8(codingRate)
    }
}

/// Telemetry modes packed in one byte: bits 0-1 base, 2-3 location, 4-5 environment;
/// each 0 deny, 1 allow per contact flags, 2 allow all.
public struct TelemetryModes: Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(base: UInt8, location: UInt8, environment: UInt8) {
        rawValue = (base & 3) | (location & 3) << 2 | (environment & 3) << 4
    }

    public var base: UInt8 { rawValue & 3 }
    public var location: UInt8 { (rawValue >> 2) & 3 }
    public var environment: UInt8 { (rawValue >> 4) & 3 }
}

/// SELF_INFO (5), the answer to APP_START (Docs/protocol.md §4.2).
public struct SelfInfo: Hashable, Sendable {
    static let fixedSize = 57

    public var advertType: NodeType
    public var txPower: Int8
    public var maxTxPower: Int8
    public var publicKey: PublicKey
    public var position: Coordinates
    public var multiAcks: UInt8
    public var advertLocationPolicy: UInt8
    public var telemetryModes: TelemetryModes
    public var manualAddContacts: UInt8
    public var radio: RadioParams
    public var name: String

    public init(advertType: NodeType = .chat, txPower: Int8, maxTxPower: Int8, publicKey: PublicKey, position: Coordinates = .zero,
                multiAcks: UInt8 = 0, advertLocationPolicy: UInt8 = 0, telemetryModes: TelemetryModes = TelemetryModes(rawValue: 0),
                manualAddContacts: UInt8 = 0, radio: RadioParams, name: String) {
        self.advertType = advertType
        self.txPower = txPower
        self.maxTxPower = maxTxPower
        self.publicKey = publicKey
        self.position = position
        self.multiAcks = multiAcks
        self.advertLocationPolicy = advertLocationPolicy
        self.telemetryModes = telemetryModes
        self.manualAddContacts = manualAddContacts
        self.radio = radio
        self.name = name
    }

    /// The position the radio's adverts carry: none when `advertLocationPolicy` is 0 (none);
    /// the companion firmware shares it for every other value.
    public var advertisedPosition: Coordinates? { advertLocationPolicy == 0 ? nil : position }

    static func read(_ r: inout ByteReader) throws -> SelfInfo {
        let type = NodeType(rawValue: try r.u8("adv type"))
        let tx = try r.i8("tx power")
        let maxTx = try r.i8("max tx power")
        let key = try r.publicKey()
        let pos = Coordinates(latitudeE6: try r.i32("latitude"), longitudeE6: try r.i32("longitude"))
        let multi = try r.u8("multi_acks")
        let loc = try r.u8("advert_loc_policy")
        let tel = TelemetryModes(rawValue: try r.u8("telemetry modes"))
        let manual = try r.u8("manual_add_contacts")
        let radio = try RadioParams.read(&r)
        return SelfInfo(advertType: type, txPower: tx, maxTxPower: maxTx, publicKey: key, position: pos, multiAcks: multi,
                        advertLocationPolicy: loc, telemetryModes: tel, manualAddContacts: manual, radio: radio, name: r.restString())
    }

    func write(_ w: inout ByteWriter) {
        w.u8(advertType.rawValue)
        w.i8(txPower)
        w.i8(maxTxPower)
        w.append(publicKey.bytes)
        w.i32(position.latitudeE6)
        w.i32(position.longitudeE6)
        w.u8(multiAcks)
        w.u8(advertLocationPolicy)
        w.u8(telemetryModes.rawValue)
        w.u8(manualAddContacts)
        radio.write(&w)
        w.string(name)
    }
}
