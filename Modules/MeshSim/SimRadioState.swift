import MeshCodec
import MeshCrypto

/// Everything a simulated companion radio knows, as one value: the command handler
/// changes it, the `SimRadio` actor owns it.
public struct SimRadioState: Hashable, Sendable {
    public var limits: SimLimits
    /// The radio's Ed25519 identity; `publicKey` is its public half.
    public private(set) var identity: Ed25519.KeyPair
    public private(set) var publicKey: PublicKey
    public var name: String
    public var radio: RadioParams
    public var clientRepeat = false
    public var pathHashMode: UInt8 = 0
    public var txPower: Int8
    public var position: Coordinates = .zero
    public var blePin: UInt32 = 0
    public var prefs = SimPrefs()
    public var batteryMillivolts: UInt16 = 4100
    /// dBm, as GET_STATS reports it.
    public var noiseFloor: Int16 = -118
    public var contacts: ContactTable
    public var channels: [ChannelInfo]
    public var offlineQueue: OfflineQueue
    public var stats = SimStats()
    /// The protocol version the app declared with DEVICE_QUERY; 0 after boot (legacy frames).
    public var appTargetVersion: UInt8 = 0
    /// The rest of the mesh, by key.
    public var nodes: [PublicKey: SimNode] = [:] {
        didSet { neighbourRepeaters = nodes.values.filter { $0.type == .repeater && $0.route.isEmpty }.sorted { $0.publicKey.bytes.lexicographicallyPrecedes($1.publicKey.bytes) } }
    }
    /// Repeaters within the radio's reach (zero-hop), in key order: they echo flood packets.
    private(set) var neighbourRepeaters: [SimNode] = []
    public var rng: SimRNG
    /// Draws for what the radio overhears (echo delays and losses), apart from `rng` so that
    /// logging the air never moves the mesh's own events.
    var airRNG: SimRNG
    /// Device clock at simulation start, epoch seconds; see `deviceTime(at:)`.
    private(set) var clockBase: UInt32
    /// The last sends whose ACK can still be confirmed (oldest first).
    var expectedAcks: [ExpectedAck] = []
    /// Texts the mesh's nodes have received from this radio, by ACK code (the same code is the
    /// same timestamp, attempt and text: the same packet). A node drops a packet it has seen,
    /// so a repeat is never acknowledged. The newest 128, as a node's seen-packets table.
    var textsSeenByNodes: [AckCode] = []
    /// Things that happen later: ACKs arriving, messages coming in.
    var scheduled: [ScheduledEvent] = []
    /// The one remote request whose answer the radio still waits for (Docs/protocol.md §7.5).
    var pending: PendingRequest?
    /// The radio's entry in each server's access list (kept by the servers).
    var sessions: [PublicKey: SimAccessEntry] = [:]
    /// Per room server: the newest post the radio has (sent with the next login).
    var roomSyncSince: [PublicKey: UInt32] = [:]
    /// Hashes of the newest packets read off the shared air: a packet heard again (a
    /// repeater's copy) is only logged.
    var packetsSeen: [[UInt8]] = []
    /// Recently heard adverts and the paths they came by (GET_ADVERT_PATH).
    var advertPaths: [HeardAdvert] = []
    /// Data collected between SIGN_START and SIGN_FINISH (nil: no signing under way).
    var signBuffer: [UInt8]?
    /// Raw adverts of contacts imported with IMPORT_CONTACT (EXPORT_CONTACT returns them).
    var importedAdverts: [PublicKey: [UInt8]] = [:]
    /// The last value `uniqueTime` gave out.
    var lastUnique: UInt32 = 0
    /// Set by REBOOT and FACTORY_RESET: the link must close (the radio restarted).
    var restarted = false
    /// When the radio last started, on the simulation's clock (uptime counts from here).
    var bootedAt: Duration = .zero
    /// ECDH secrets with peers, as the firmware caches them per contact (one key exchange each).
    private var sharedSecrets: [PublicKey: [UInt8]] = [:]
    /// Things the simulation could not do (its own bugs), kept for tests and logs.
    public internal(set) var problems: [String] = []
    /// Chance that one hop loses a packet (0: an ideal air).
    public var lossPerHop = 0.0
    /// On a shared air (GatewayMesh.swift) what the radio transmits is heard by the other
    /// gateways too: it waits in `aired` until the air takes it. Alone, nobody else listens.
    public var sharesAir = false
    var aired: [AiredPacket] = []

    /// The firmware's clock without an RTC starts here (Docs/protocol.md §11).
    public static let bootTime: UInt32 = 1_715_770_351

    public init(seed: UInt64, limits: SimLimits = SimLimits(), clock: UInt32 = SimRadioState.bootTime) {
        self.limits = limits
        identity = SimIdentity.keyPair(seed: seed, label: "self")
        publicKey = SimIdentity.publicKey(of: identity)
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
        airRNG = SimRNG(seed: seed ^ 0xA1B0_0A1B)
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

    /// The board's clock (and the unique-time counter) of `other`, which keeps running across
    /// a factory reset: the simulated board has a clock that survives restarts.
    mutating func keepClock(of other: SimRadioState) {
        clockBase = other.clockBase
        lastUnique = other.lastUnique
    }

    /// A new identity (IMPORT_PRIVATE_KEY); servers' access lists know the old key only.
    mutating func setIdentity(_ pair: Ed25519.KeyPair) {
        identity = pair
        publicKey = SimIdentity.publicKey(of: pair)
        sessions = [:]
        sharedSecrets = [:]
    }

    /// The secret the radio shares with `peer` (DMs, requests and their replies are sealed with it).
    mutating func sharedSecret(with peer: PublicKey) -> [UInt8]? {
        if let known = sharedSecrets[peer] { return known }
        let secret = identity.keyExchange(publicKey: peer.bytes)
        sharedSecrets[peer] = secret
        return secret
    }

    /// The firmware's `getCurrentTimeUnique`: the clock, but never the same value twice.
    mutating func uniqueTime(at now: Duration) -> UInt32 {
        let t = deviceTime(at: now)
        lastUnique = t > lastUnique ? t : lastUnique &+ 1
        return lastUnique
    }

    /// Message frames take the format the app declared when they are queued (Docs/protocol.md §7.1).
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
        /// A server's or node's answer to a request: its reply bytes (tag first). It came as a
        /// path-return when the request went flood.
        case replyArrives(from: PublicKey, data: [UInt8], viaFlood: Bool)
        /// A node's advert is heard (its own clock in `timestamp`).
        case advertArrives(from: PublicKey, timestamp: UInt32)
        /// The default mesh's background channel chatter; each one schedules the next.
        case chatter
        /// The path-return a path discovery asked for.
        case discoveryArrives(from: PublicKey, tag: UInt32, outPath: Path, inPath: Path)
        /// A trace came back along its path.
        case traceArrives(TraceData)
        /// The radio hears a packet it has seen before: an echo (LOG_RX_DATA only).
        case heard(ReceivedPacket)
        /// Packet `number` of a scenario's busy air; each schedules the next.
        case overheard(OverheardRun, number: Int)
        /// A packet over the shared air of several gateways: logged, then read (SimHandler+Received.swift).
        case received(ReceivedPacket)
        /// The radio's battery or noise floor changes (nil: unchanged).
        case readingsChange(batteryMillivolts: UInt16?, noiseFloor: Int16?)
    }

    var due: Duration
    var kind: Kind
}

/// A message the mesh delivers to the radio; its frame format is chosen when it is queued.
public enum IncomingMessage: Hashable, Sendable {
    case direct(from: PublicKey, text: String, sentAt: UInt32, snrX4: Int8 = 24)
    case channel(index: UInt8, senderName: String, text: String, sentAt: UInt32, hops: Int, snrX4: Int8 = 20)
    /// A room server pushes a post (signed-plain text carrying the author's key prefix).
    case roomPost(from: PublicKey, author: PublicKey, text: String, postedAt: UInt32, snrX4: Int8 = 24)
}

/// The remote request the radio waits for; a new request replaces it (`clearPendingReqs`).
enum PendingRequest: Hashable, Sendable {
    /// Login and status replies are matched by the server's first 4 key bytes.
    case login(prefix: [UInt8])
    case status(prefix: [UInt8])
    /// The rest by the tag the server echoes.
    case telemetry(tag: UInt32)
    case binary(tag: UInt32)
    case discovery(tag: UInt32)
}
