/// MQTT's delivery levels Meshport uses: at most once, or at least once (QoS 2 is not offered:
/// the community brokers and the uplink need no more than at least once).
public enum MQTTQoS: Int32, Sendable, Equatable, CaseIterable {
    case atMostOnce = 0
    case atLeastOnce = 1
}

/// One application message, going out or coming in.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool
    /// An incoming message's: the identifiers of the subscriptions it came by, when they were
    /// given one (MQTT 5, `MQTTClient.subscribe(_:qos:identifier:)`). A message matching two
    /// of a client's subscriptions may come once for each.
    public var subscriptionIdentifiers: [Int] = []

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    public init(topic: String, text: String, qos: MQTTQoS = .atLeastOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }

    /// The payload as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// Topic rules of MQTT 3.1.1 (section 4.7): a topic to publish to has no wildcards; a filter
/// to subscribe to has `+` and `#` only as whole levels, `#` last.
enum TopicRules {
    static func checkTopic(_ topic: String) throws(MQTTError) {
        try checkCommon(topic)
        if topic.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }) {
            throw .invalidTopic(topic: topic, reason: "a topic to publish to cannot contain the wildcards + or #")
        }
    }

    static func checkFilter(_ filter: String) throws(MQTTError) {
        try checkCommon(filter)
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in levels.enumerated() {
            if level.contains("#"), level != "#" || index != levels.count - 1 {
                throw .invalidTopic(topic: filter, reason: "# must be a whole level and the last one (level \(index + 1))")
            }
            if level.contains("+"), level != "+" {
                throw .invalidTopic(topic: filter, reason: "+ must be a whole level (level \(index + 1))")
            }
        }
    }

    /// Scans the UTF-8 bytes: every message is checked, and Foundation's substring search
    /// cost more than the rest of `publish`.
    private static func checkCommon(_ topic: String) throws(MQTTError) {
        if topic.isEmpty { throw .invalidTopic(topic: topic, reason: "it is empty") }
        if topic.utf8.count > 65_535 { throw .invalidTopic(topic: topic, reason: "it is longer than 65535 bytes") }
        if topic.utf8.contains(0) { throw .invalidTopic(topic: topic, reason: "it contains a NUL character") }
    }
}
