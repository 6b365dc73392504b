import Foundation
import MeshMQTT

/// What one ingest worker connects to and how it batches (`IngestOptions` makes it from the
/// command line; tests make it directly).
public struct IngestSettings: Sendable {
    /// One MQTT client per broker; all feed the same spool.
    public var brokers: [MQTTBrokerURL]
    /// The shared-subscription group: workers in one group split the stream. nil: one worker
    /// alone, on plain subscriptions.
    public var group: String?
    /// Stable across restarts, distinct per worker: the broker keeps the session by it.
    public var clientID: String
    /// The worker's own folder for its spool.
    public var spoolFolder: URL
    public var batchSize: Int
    /// A batch that is not full goes out after this long.
    public var batchInterval: Duration
    /// Messages waiting in the spool before the broker is held back.
    public var spoolBound: Int
    /// How long the broker keeps a stopped worker's session and queue.
    public var sessionExpirySeconds: UInt32
    public var channels: IngestChannels
    /// A failed write to the region store is retried after `retryMin`, doubling up to `retryMax`.
    public var retryMin: Duration
    public var retryMax: Duration

    public init(brokers: [MQTTBrokerURL], group: String?, clientID: String, spoolFolder: URL, batchSize: Int = 500,
                batchInterval: Duration = .milliseconds(200), spoolBound: Int = 10_000, sessionExpirySeconds: UInt32 = 7 * 86_400,
                channels: IngestChannels = IngestChannels(), retryMin: Duration = .milliseconds(500), retryMax: Duration = .seconds(30)) {
        self.brokers = brokers
        self.group = group
        self.clientID = clientID
        self.spoolFolder = spoolFolder
        self.batchSize = batchSize
        self.batchInterval = batchInterval
        self.spoolBound = spoolBound
        self.sessionExpirySeconds = sessionExpirySeconds
        self.channels = channels
        self.retryMin = retryMin
        self.retryMax = retryMax
    }

    /// The community topics: this group's shared subscriptions, or plain ones for a worker
    /// alone (which Mosquitto 2.0 restores after its own restart; shared ones it does not).
    public var filters: [String] {
        ["packets", "status"].map { kind in group.map { "$share/\($0)/meshcore/+/+/\(kind)" } ?? "meshcore/+/+/\(kind)" }
    }
}
