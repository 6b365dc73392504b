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
    /// The group's anchor (`--anchor`, one worker per group): it also holds plain
    /// subscriptions, which Mosquitto 2.0 restores after its own restart and shared ones it
    /// does not, and writes what they bring until its shared ones deliver again
    /// (Docs/ingest.md, "The anchor").
    public var anchor: Bool
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

    public init(brokers: [MQTTBrokerURL], group: String?, anchor: Bool = false, clientID: String, spoolFolder: URL, batchSize: Int = 500,
                batchInterval: Duration = .milliseconds(200), spoolBound: Int = 10_000, sessionExpirySeconds: UInt32 = 7 * 86_400,
                channels: IngestChannels = IngestChannels(), retryMin: Duration = .milliseconds(500), retryMax: Duration = .seconds(30)) {
        self.brokers = brokers
        self.group = group
        self.anchor = anchor && group != nil
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

    /// Which of a worker's subscriptions brought a message (its MQTT 5 subscription identifier).
    public enum Subscription: Int, Sendable {
        case group = 1
        case anchor = 2
    }

    /// The community topics: this group's shared subscriptions (and an anchor's plain ones),
    /// or plain ones for a worker alone, with the identifier each message will carry (none
    /// for a worker alone: everything it gets is its own).
    public var subscriptions: [(filter: String, identifier: Int?)] {
        let kinds = ["packets", "status"]
        guard let group else { return kinds.map { ("meshcore/+/+/\($0)", nil) } }
        let shared = kinds.map { ("$share/\(group)/meshcore/+/+/\($0)", Subscription.group.rawValue as Int?) }
        return anchor ? shared + kinds.map { ("meshcore/+/+/\($0)", Subscription.anchor.rawValue) } : shared
    }

    public var filters: [String] { subscriptions.map(\.filter) }
}
