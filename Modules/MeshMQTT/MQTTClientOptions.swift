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
    /// QoS 1 messages sent but not yet acknowledged at any time; order is kept within the
    /// window. Each acknowledgement reaches the client through its actor, so a small window
    /// caps QoS 1 throughput at a few thousand messages a second.
    public var inFlightWindow: Int
    /// Incoming messages kept for a slow reader of `messages`; more are dropped and counted.
    public var incomingBuffer: Int

    public init(clientID: String, will: MQTTMessage? = nil, backlogCapacity: Int = 10_000, backlogFolder: URL? = nil,
                retryMin: Duration = .seconds(1), retryMax: Duration = .seconds(60), connectTimeout: Duration = .seconds(10),
                inFlightWindow: Int = 256, incomingBuffer: Int = 10_000) {
        self.clientID = clientID
        self.will = will
        self.backlogCapacity = backlogCapacity
        self.backlogFolder = backlogFolder
        self.retryMin = retryMin
        self.retryMax = retryMax
        self.connectTimeout = connectTimeout
        self.inFlightWindow = inFlightWindow
        self.incomingBuffer = incomingBuffer
    }
}
