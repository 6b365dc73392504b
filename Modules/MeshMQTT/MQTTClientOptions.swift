import Foundation

/// How an `MQTTClient` connects, retries and queues (Docs/mqtt.md).
public struct MQTTClientOptions: Sendable {
    /// The client id when the broker URL gives none (`?client-id=` wins). Keep it stable:
    /// the broker knows a client by it, and a second client with the same id takes its place.
    public var clientID: String
    /// Published by the broker when this client's connection dies without a DISCONNECT.
    public var will: MQTTMessage?
    /// The most outgoing messages kept while the broker is away; the oldest go first.
    public var backlogCapacity: Int
    /// Where QoS 1 messages wait on disk until the broker acknowledges them; nil keeps them in
    /// memory only. One folder per client.
    public var backlogFolder: URL?
    /// The first retry waits `retryMin`, each further one twice as long, up to `retryMax`.
    public var retryMin: Duration
    public var retryMax: Duration
    public var connectTimeout: Duration
    /// Messages sent but not yet acknowledged at any time; order is kept within the window.
    public var inFlightWindow: Int
    /// Incoming messages kept for a slow reader of `messages`; more are dropped and counted.
    public var incomingBuffer: Int
    /// MQTT 3.1.1 with a clean session (the default), or MQTT 5 with a session the broker keeps.
    public var session: MQTTSession
    /// When set, every incoming message goes to this function instead of `messages`, called on
    /// Paho's receive thread before the next one is read: it may block briefly to hold the
    /// broker back (nothing more is read from the connection meanwhile). Paho has already
    /// acknowledged a QoS 1 message when this runs, so it must keep the message safe before
    /// returning. Paho holds its library-wide lock during the call (Docs/mqtt.md, "Sessions").
    public var receive: (@Sendable (MQTTMessage) -> Void)?

    public init(clientID: String, will: MQTTMessage? = nil, backlogCapacity: Int = 10_000, backlogFolder: URL? = nil,
                retryMin: Duration = .seconds(1), retryMax: Duration = .seconds(60), connectTimeout: Duration = .seconds(10),
                inFlightWindow: Int = 32, incomingBuffer: Int = 10_000, session: MQTTSession = .clean,
                receive: (@Sendable (MQTTMessage) -> Void)? = nil) {
        self.clientID = clientID
        self.will = will
        self.backlogCapacity = backlogCapacity
        self.backlogFolder = backlogFolder
        self.retryMin = retryMin
        self.retryMax = retryMax
        self.connectTimeout = connectTimeout
        self.inFlightWindow = inFlightWindow
        self.incomingBuffer = incomingBuffer
        self.session = session
        self.receive = receive
    }
}
