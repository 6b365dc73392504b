/// What the broker keeps of a client between its connections (Docs/mqtt.md, "Sessions").
public enum MQTTSession: Sendable, Equatable {
    /// MQTT 3.1.1 with a clean session: the broker forgets the client's subscriptions and
    /// queued messages when it disconnects. What gateways use.
    case clean
    /// MQTT 5 with clean start off: the broker keeps the client's subscriptions and queues its
    /// QoS 1 messages for `expirySeconds` after a disconnect, so a worker that restarts within
    /// that time misses nothing. The client id must stay the same across restarts.
    case persistent(expirySeconds: UInt32)

    var isMQTT5: Bool {
        if case .persistent = self { return true }
        return false
    }
}
