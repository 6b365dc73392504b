import MeshCodec
import MeshCrypto

/// What the firmware keeps in flash across reboots (identity, preferences, contacts,
/// channels), as a Codable value: `meshport sim --state FILE` saves it after every change
/// and restores it at start. The message queue and sessions are RAM and are not kept.
public struct SimSavedState: Codable, Hashable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var privateKey: String
    public var name: String
    public var frequencyKHz: UInt32, bandwidthHz: UInt32, spreadingFactor: UInt8, codingRate: UInt8
    public var clientRepeat: Bool
    public var pathHashMode: UInt8
    public var txPower: Int8
    public var latitudeE6: Int32, longitudeE6: Int32
    public var blePin: UInt32
    public var manualAddContacts: UInt8, telemetryModes: UInt8, advertLocationPolicy: UInt8, multiAcks: UInt8
    public var autoAddBitmask: UInt8, autoAddMaxHops: UInt8
    public var rxDelayBase: UInt32, airtimeFactor: UInt32
    /// Contact records, hex, as CONTACT carries them (147 bytes each).
    public var contacts: [String]
    /// Channel slots: name and 16-byte secret in hex.
    public var channels: [SavedChannel]
    /// Per room server key (hex): the newest post received.
    public var roomSyncSince: [String: UInt32]
    /// The clock when saved, so it never moves backwards across a restart.
    public var clock: UInt32

    public struct SavedChannel: Codable, Hashable, Sendable {
        public var name: String
        public var secret: String
    }
}

extension SimRadioState {
    /// The part of the state that survives a reboot, `now` into the simulation.
    public func saved(at now: Duration) throws -> SimSavedState {
        try SimSavedState(version: SimSavedState.currentVersion, privateKey: Hex.encode(identity.privateKey), name: name,
                      frequencyKHz: radio.frequencyKHz, bandwidthHz: radio.bandwidthHz, spreadingFactor: radio.spreadingFactor,
                      codingRate: radio.codingRate, clientRepeat: clientRepeat, pathHashMode: pathHashMode, txPower: txPower,
                      latitudeE6: position.latitudeE6, longitudeE6: position.longitudeE6, blePin: blePin,
                      manualAddContacts: prefs.manualAddContacts, telemetryModes: prefs.telemetryModes.rawValue,
                      advertLocationPolicy: prefs.advertLocationPolicy, multiAcks: prefs.multiAcks, autoAddBitmask: prefs.autoAdd.bitmask,
                      autoAddMaxHops: prefs.autoAdd.maxHops ?? 0, rxDelayBase: prefs.rxDelayBase, airtimeFactor: prefs.airtimeFactor,
                      contacts: contacts.contacts.map { c in Hex.encode(try RadioFrame.response(.contact(c)).encode().dropFirst()) },
                      channels: channels.map { SimSavedState.SavedChannel(name: $0.name, secret: Hex.encode($0.secret.bytes)) },
                      roomSyncSince: Dictionary(uniqueKeysWithValues: roomSyncSince.map { ($0.key.hex, $0.value) }),
                      clock: deviceTime(at: now))
    }

    /// Restores what `saved` kept, checking every field; the mesh (nodes, events) stays as built.
    public mutating func restore(_ saved: SimSavedState) throws {
        guard saved.version == SimSavedState.currentVersion else {
            throw ScenarioError("version", "saved state version \(saved.version); this MeshSim reads \(SimSavedState.currentVersion)")
        }
        let pair: Ed25519.KeyPair
        do {
            guard let bytes = Hex.decode(saved.privateKey) else { throw ScenarioError("privateKey", "not hex") }
            pair = try Ed25519.KeyPair(privateKey: bytes)
        } catch {
            throw ScenarioError("privateKey", "\(error)")
        }
        let params = RadioParams(frequencyKHz: saved.frequencyKHz, bandwidthHz: saved.bandwidthHz, spreadingFactor: saved.spreadingFactor,
                                 codingRate: saved.codingRate)
        guard params.isInFirmwareRange else { throw ScenarioError("frequencyKHz", "radio parameters outside the firmware's ranges") }
        var table = ContactTable(capacity: limits.maxContacts)
        for (i, hex) in saved.contacts.enumerated() {
            guard let bytes = Hex.decode(hex) else { throw ScenarioError("contacts[\(i)]", "not hex") }
            let frame: RadioFrame
            do {
                frame = try RadioFrame(decoding: [ResponseCode.contact.rawValue] + bytes)
            } catch {
                throw ScenarioError("contacts[\(i)]", "\(error)")
            }
            guard case let .response(.contact(c)) = frame, table.upsert(c) else {
                throw ScenarioError("contacts[\(i)]", "more contacts than the table holds (\(limits.maxContacts))")
            }
        }
        var slots: [ChannelInfo] = []
        for (i, c) in saved.channels.prefix(limits.channelSlots).enumerated() {
            guard let secret = ChannelSecret(hex: c.secret) else { throw ScenarioError("channels[\(i)].secret", "not 32 hex digits") }
            slots.append(ChannelInfo(index: UInt8(i), name: c.name, secret: secret))
        }
        setIdentity(pair)
        name = saved.name
        radio = params
        clientRepeat = saved.clientRepeat
        pathHashMode = saved.pathHashMode
        txPower = saved.txPower
        position = Coordinates(latitudeE6: saved.latitudeE6, longitudeE6: saved.longitudeE6)
        blePin = saved.blePin
        prefs.manualAddContacts = saved.manualAddContacts
        prefs.telemetryModes = TelemetryModes(rawValue: saved.telemetryModes)
        prefs.advertLocationPolicy = saved.advertLocationPolicy
        prefs.multiAcks = saved.multiAcks
        prefs.autoAdd = AutoAddConfig(bitmask: saved.autoAddBitmask, maxHops: saved.autoAddMaxHops)
        prefs.rxDelayBase = saved.rxDelayBase
        prefs.airtimeFactor = saved.airtimeFactor
        contacts = table
        for (i, slot) in slots.enumerated() { channels[i] = slot }
        var sync: [PublicKey: UInt32] = [:]
        for (hex, since) in saved.roomSyncSince {
            guard let key = PublicKey(hex: hex) else { throw ScenarioError("roomSyncSince", "\"\(hex)\" is not a 64-digit key") }
            sync[key] = since
        }
        roomSyncSince = sync
        _ = setDeviceTime(saved.clock, at: .zero)
    }
}
