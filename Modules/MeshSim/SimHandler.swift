import MeshCodec

/// The radio's command handler, pure: a command and the time in, the new state and the
/// frames the radio writes out (responses and pushes). Answers as companion firmware
/// v1.17.1 does (Docs/protocol.md §3, §3.1, §10); see Docs/meshsim.md for where it differs.
public enum SimHandler {
    public static let firmwareVersion = "v1.17.1"
    public static let buildDate = "14 Aug 2026"
    public static let protocolVersion: UInt8 = 13
    public static let manufacturer = "Meshport MeshSim"

    public static func handle(_ state: inout SimRadioState, _ command: Command, now: Duration) -> [RadioFrame] {
        switch command {
        case .appStart:
            return [.response(.selfInfo(selfInfo(state)))]
        case let .deviceQuery(version):
            state.appTargetVersion = version
            return [.response(.deviceInfo(deviceInfo(state)))]
        case let .getContacts(since):
            return contactStream(state, since: since ?? 0)
        case let .getContactByKey(key):
            guard let c = state.contacts.contact(key) else { return [error(.notFound)] }
            return [.response(.contact(c))]
        case let .addUpdateContact(add):
            return addOrUpdate(&state, add, now: now)
        case let .removeContact(key):
            return state.contacts.remove(key) ? [ok] : [error(.notFound)]
        case let .resetPath(key):
            // The firmware leaves lastmod alone: the app already has this version of the contact.
            return state.contacts.update(key) { $0.outPath = .none } ? [ok] : [error(.notFound)]
        case .syncNextMessage:
            return [.response(state.offlineQueue.pop() ?? .noMoreMessages)]
        case let .sendTextMessage(message):
            return sendText(&state, message, now: now)
        case let .sendChannelTextMessage(message):
            return sendChannelText(&state, message, now: now)
        case let .getChannel(index):
            guard Int(index) < state.channels.count else { return [error(.notFound)] }
            return [.response(.channelInfo(state.channels[Int(index)]))]
        case let .setChannel(info):
            guard Int(info.index) < state.channels.count else { return [error(.notFound)] }
            state.channels[Int(info.index)] = info
            return [ok]
        case .getDeviceTime:
            return [.response(.currentTime(state.deviceTime(at: now)))]
        case let .setDeviceTime(time):
            let before = state.deviceTime(at: now)
            guard state.setDeviceTime(time, at: now) else { return [error(.illegalArgument)] }
            state.moveMeshTimes(forwardBy: time - before)
            return [ok]
        case let .setAdvertName(name):
            state.name = name
            return [ok]
        case let .setAdvertLatLon(position, _):
            guard abs(Int64(position.latitudeE6)) <= 90_000_000, abs(Int64(position.longitudeE6)) <= 180_000_000 else {
                return [error(.illegalArgument)]
            }
            state.position = position
            return [ok]
        case let .setRadioParams(params, repeatRequested):
            return setRadioParams(&state, params, clientRepeat: repeatRequested ?? false)
        case let .setRadioTxPower(power):
            guard power >= -9, power <= state.limits.maxTxPower else { return [error(.illegalArgument)] }
            state.txPower = min(power, state.limits.txPowerCap ?? power)
            return [ok]
        case .getBatteryAndStorage:
            return [.response(.batteryAndStorage(BatteryAndStorage(millivolts: state.batteryMillivolts, storageUsedKiB: storageUsedKiB(state),
                                                                   storageTotalKiB: 484)))]
        case let .getStats(type):
            return [.response(.stats(stats(state, type, now: now)))]
        case let .sendLogin(key, password):
            return sendLogin(&state, key, password: password, now: now)
        case let .sendStatusRequest(key):
            let request = typedRequest(&state, SimServerLogic.status)
            return sendRequest(&state, key, request, pending: { _ in .status(prefix: Array(key.bytes.prefix(4))) }, now: now)
        case let .sendTelemetryRequest(key?, _):
            return sendRequest(&state, key, typedRequest(&state, SimServerLogic.telemetry), pending: { .telemetry(tag: $0) }, now: now)
        case .sendTelemetryRequest(nil, _):
            return selfTelemetry(&state)
        case let .sendBinaryRequest(key, data):
            return sendRequest(&state, key, data, pending: { .binary(tag: $0) }, now: now)
        case let .sendAnonRequest(key, data):
            return sendAnonRequest(&state, key, data: data, now: now)
        case let .sendPathDiscoveryRequest(key):
            return sendPathDiscovery(&state, key, now: now)
        case let .sendTracePath(trace):
            return sendTrace(&state, trace, now: now)
        case .hasConnection:
            // v1.17.1 servers recommend no keep-alive at login, so the radio never holds a connection.
            return [error(.notFound)]
        case .logout:
            return [ok]
        case .reboot:
            return reboot(&state, now: now)
        case .factoryReset:
            return factoryReset(&state, now: now)
        case let .getAdvertPath(key, _):
            return advertPath(state, key)
        default:
            if let answer = settings(&state, command) ?? identity(&state, command, now: now) ?? datagram(&state, command) { return answer }
            // Not simulated: answered as the firmware answers a command it does not know.
            return [error(.unsupportedCommand)]
        }
    }

    static let ok = RadioFrame.response(.ok(value: nil))
    static func error(_ e: RadioError) -> RadioFrame { .response(.error(e)) }

    static func selfInfo(_ s: SimRadioState) -> SelfInfo {
        SelfInfo(txPower: s.txPower, maxTxPower: s.limits.maxTxPower, publicKey: s.publicKey, position: s.position,
                 multiAcks: s.prefs.multiAcks, advertLocationPolicy: s.prefs.advertLocationPolicy, telemetryModes: s.prefs.telemetryModes,
                 manualAddContacts: s.prefs.manualAddContacts, radio: s.radio, name: s.name)
    }

    static func deviceInfo(_ s: SimRadioState) -> DeviceInfo {
        DeviceInfo(protocolVersion: protocolVersion, maxContacts: s.limits.maxContacts, maxChannels: UInt8(clamping: s.limits.channelSlots),
                   blePin: s.blePin, buildDate: buildDate, manufacturer: manufacturer, firmwareVersion: firmwareVersion,
                   clientRepeat: s.clientRepeat, pathHashMode: s.pathHashMode)
    }

    /// CONTACTS_START carries the total, the stream only contacts changed after `since`,
    /// END_OF_CONTACTS the highest lastmod sent (0 when none).
    static func contactStream(_ s: SimRadioState, since: UInt32) -> [RadioFrame] {
        let selected = s.contacts.contacts.filter { $0.lastModified > since }
        return [.response(.contactsStart(total: UInt32(s.contacts.count)))] + selected.map { .response(.contact($0)) }
            + [.response(.endOfContacts(lastModified: selected.map(\.lastModified).max() ?? 0))]
    }

    static func addOrUpdate(_ s: inout SimRadioState, _ add: AddUpdateContact, now: Duration) -> [RadioFrame] {
        var contact = add.contact
        // Without lastmod on the wire the radio stamps its own clock.
        if add.layout != .full { contact.lastModified = s.deviceTime(at: now) }
        if let existing = s.contacts.contact(contact.publicKey) {
            // A record without position keeps the stored one.
            if add.layout == .base { contact.position = existing.position }
        } else if s.contacts.isFull {
            return [error(.tableFull)]
        }
        s.contacts.upsert(contact)
        return [ok]
    }

    static func setRadioParams(_ s: inout SimRadioState, _ p: RadioParams, clientRepeat: Bool) -> [RadioFrame] {
        if clientRepeat, !allowedRepeatFrequencies.contains(where: { ($0.lowerKHz...$0.upperKHz).contains(p.frequencyKHz) }) {
            return [error(.illegalArgument)]
        }
        guard p.isInFirmwareRange else { return [error(.illegalArgument)] }
        s.radio = p
        s.clientRepeat = clientRepeat
        return [ok]
    }

    /// The firmware's default client-repeat table (Docs/protocol.md §4, code 26).
    static let allowedRepeatFrequencies = [
        FrequencyRange(lowerKHz: 433_000, upperKHz: 433_000), FrequencyRange(lowerKHz: 869_495, upperKHz: 869_495),
        FrequencyRange(lowerKHz: 918_000, upperKHz: 918_000),
    ]

    /// A rough figure: one 4 KiB flash block per 20 contacts plus the prefs and channels files.
    static func storageUsedKiB(_ s: SimRadioState) -> UInt32 { UInt32(8 + (s.contacts.count + 19) / 20 * 4) }

    static func stats(_ s: SimRadioState, _ type: StatsType, now: Duration) -> Stats {
        let st = s.stats
        switch type {
        case .core:
            return .core(CoreStats(batteryMillivolts: s.batteryMillivolts, uptimeSeconds: UInt32(truncatingIfNeeded: (now - s.bootedAt).milliseconds / 1000),
                                   errorFlags: 0, queueLength: 0))
        case .radio:
            return .radio(RadioStats(noiseFloor: s.noiseFloor, lastRSSI: st.lastRSSI, lastSNRx4: st.lastSNRx4,
                                     txAirtimeSeconds: UInt32(st.txAirtimeMs / 1000), rxAirtimeSeconds: UInt32(st.rxAirtimeMs / 1000)))
        case .packets:
            return .packets(PacketStats(received: st.received, sent: st.sent, sentFlood: st.sentFlood, sentDirect: st.sentDirect,
                                        receivedFlood: st.receivedFlood, receivedDirect: st.receivedDirect, receiveErrors: st.receiveErrors))
        }
    }
}
