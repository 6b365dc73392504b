import MeshCodec

/// Everything a simulated companion radio knows, as one value: the command handler
/// changes it, the `SimRadio` actor owns it.
public struct SimRadioState: Hashable, Sendable {
    public var limits: SimLimits
    public var publicKey: PublicKey
    public var name: String
    public var radio: RadioParams
    public var clientRepeat = false
    public var pathHashMode: UInt8 = 0
    public var txPower: Int8
    public var position: Coordinates = .zero
    public var blePin: UInt32 = 0
    public var batteryMillivolts: UInt16 = 4100
    public var contacts: ContactTable
    public var channels: [ChannelInfo]
    public var offlineQueue: OfflineQueue
    public var stats = SimStats()
    /// The protocol version the app declared with DEVICE_QUERY; 0 after boot (legacy frames).
    public var appTargetVersion: UInt8 = 0
    /// The rest of the mesh, by key.
    public var nodes: [PublicKey: SimNode] = [:]
    public var rng: SimRNG
    /// Device clock at simulation start, epoch seconds; see `deviceTime(at:)`.
    private(set) var clockBase: UInt32
    /// The last sends whose ACK can still be confirmed (oldest first).
    var expectedAcks: [ExpectedAck] = []
    /// Things that happen later: ACKs arriving, messages coming in.
    var scheduled: [ScheduledEvent] = []

    /// The firmware's clock without an RTC starts here (protocol.md §14).
    public static let bootTime: UInt32 = 1_715_770_351

    public init(seed: UInt64, limits: SimLimits = SimLimits(), clock: UInt32 = SimRadioState.bootTime) {
        self.limits = limits
        publicKey = SimIdentity.publicKey(seed: seed, label: "self")
        name = SimIdentity.defaultName(publicKey)
        // The firmware's default radio settings (LORA_FREQ 915, LORA_BW 250, LORA_SF 10, LORA_CR 5).
        radio = RadioParams(frequencyKHz: 915_000, bandwidthHz: 250_000, spreadingFactor: 10, codingRate: 5)
        txPower = limits.maxTxPower
        contacts = ContactTable(capacity: limits.maxContacts)
        channels = (0..<limits.channelSlots).map { ChannelInfo(index: UInt8($0), name: "", secret: .empty) }
        if !channels.isEmpty {
            channels[0] = ChannelInfo(index: 0, name: ChannelSecret.publicChannelName, secret: .publicChannel)
        }
        offlineQueue = OfflineQueue(capacity: limits.offlineQueueSize)
        rng = SimRNG(seed: seed ^ 0x5EED_0F_5EED)
        clockBase = clock
    }

    /// The radio's clock (epoch seconds) `now` into the simulation.
    public func deviceTime(at now: Duration) -> UInt32 {
        clockBase &+ UInt32(truncatingIfNeeded: now.milliseconds / 1000)
    }

    /// Sets the clock; the firmware refuses to move it backwards (equal is fine).
    mutating func setDeviceTime(_ time: UInt32, at now: Duration) -> Bool {
        guard time >= deviceTime(at: now) else { return false }
        clockBase = time &- UInt32(truncatingIfNeeded: now.milliseconds / 1000)
        return true
    }

    /// Message frames take the format the app declared when they are queued (protocol.md §7.1).
    var messageFormat: MessageFormat { appTargetVersion >= 3 ? .v3 : .legacy }
}

/// A sent DM waiting for its ACK.
struct ExpectedAck: Hashable, Sendable {
    var code: AckCode
    var recipient: PublicKey
    var sentAt: Duration
}

/// Something the mesh does later.
struct ScheduledEvent: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// The recipient's ACK (with a path-return when the DM went flood) reaches the radio.
        case ackArrives(AckCode, from: PublicKey, viaFlood: Bool)
        /// A DM or channel message arrives and is queued.
        case messageArrives(IncomingMessage)
    }

    var due: Duration
    var kind: Kind
}

/// A message the mesh delivers to the radio; its frame format is chosen when it is queued.
public enum IncomingMessage: Hashable, Sendable {
    case direct(from: PublicKey, text: String, sentAt: UInt32, snrX4: Int8 = 24)
    case channel(index: UInt8, senderName: String, text: String, sentAt: UInt32, hops: Int, snrX4: Int8 = 20)
}
