import Foundation

/// The outgoing messages not yet acknowledged by the broker, oldest first, at most `capacity`:
/// appending to a full backlog drops the oldest. QoS 1 messages are also appended to the
/// folder's log (BacklogSegments.swift, when a folder is given) and stay there until
/// acknowledged, so a restarted process sends them again.
///
/// Paho keeps its own buffer while disconnected, but a full one refuses the newest message;
/// a gateway wants the newest packets kept, so the backlog lives here and Paho only holds what
/// it is sending (Outbox.swift).
struct Backlog {
    struct Entry {
        let sequence: UInt64
        let message: MQTTMessage
    }

    let capacity: Int
    /// The folder's log (nil without a folder).
    private let log: BacklogSegments?
    private(set) var dropped = 0
    /// Sequence numbers in order; entries whose message is gone are skipped (`head` moves past them).
    private var order: [UInt64] = []
    private var head = 0
    private var messages: [UInt64: MQTTMessage] = [:]
    private var nextSequence: UInt64 = 1

    /// Loads the messages a previous process left in `folder`; a record that cannot be read
    /// back (torn by a crash, damaged) is counted as dropped.
    init(capacity: Int, folder: URL?) throws(MQTTError) {
        self.capacity = max(1, capacity)
        guard let folder else {
            log = nil
            return
        }
        let log = try BacklogSegments(directory: folder.path)
        self.log = log
        dropped = log.tornSegments
        for (sequence, body) in log.takeRecovered() {
            if let message = Self.decode(body) {
                messages[sequence] = message
                order.append(sequence)
            } else {
                dropped += 1
            }
        }
        // The cursor may be past every message on disk (all acknowledged): numbers go on from it.
        nextSequence = max((log.newest ?? 0) + 1, log.cursor, 1)
        while messages.count > self.capacity { try dropOldest() }
        try log.advance(to: oldestSequence)
    }

    var count: Int { messages.count }

    /// Appends `message` (writing it to disk first when it is QoS 1), dropping the oldest if full.
    mutating func append(_ message: MQTTMessage) throws(MQTTError) {
        let sequence = nextSequence
        if let log, message.qos == .atLeastOnce { try log.append(sequence, Self.encode(message)) }
        nextSequence += 1
        while messages.count >= capacity { try dropOldest() }
        messages[sequence] = message
        order.append(sequence)
    }

    /// Forgets an acknowledged message; unknown sequences (already dropped) are ignored.
    mutating func remove(_ sequence: UInt64) throws(MQTTError) {
        guard messages.removeValue(forKey: sequence) != nil else { return }
        try compact()
    }

    /// The oldest message whose sequence is at least `sequence`.
    func first(from sequence: UInt64) -> Entry? {
        // `order` is ascending: find where `sequence` would go rather than walk past the
        // messages still waiting for their acknowledgement.
        var low = head, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if order[middle] < sequence { low = middle + 1 } else { high = middle }
        }
        for index in low..<order.count {
            if let message = messages[order[index]] { return Entry(sequence: order[index], message: message) }
        }
        return nil
    }

    /// The oldest sequence still kept, or the next one to be given when empty.
    var oldestSequence: UInt64 {
        for index in head..<order.count where messages[order[index]] != nil { return order[index] }
        return nextSequence
    }

    private mutating func dropOldest() throws(MQTTError) {
        let sequence = oldestSequence
        guard messages.removeValue(forKey: sequence) != nil else { return }
        dropped += 1
        try compact()
    }

    /// Moves `head` past removed messages and trims the order array once half of it is behind;
    /// the log's cursor follows the oldest message kept.
    private mutating func compact() throws(MQTTError) {
        let moved = head < order.count && messages[order[head]] == nil
        while head < order.count, messages[order[head]] == nil { head += 1 }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        if moved { try log?.advance(to: oldestSequence) }
    }

    /// A stored message: format version 1, QoS, retain, topic length (u32, big-endian), topic, payload.
    static func encode(_ message: MQTTMessage) -> [UInt8] {
        let topic = Array(message.topic.utf8)
        let length = UInt32(topic.count)
        var data: [UInt8] = [1, UInt8(message.qos.rawValue), message.retain ? 1 : 0]
        data.reserveCapacity(7 + topic.count + message.payload.count)
        data.append(contentsOf: [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)])
        data.append(contentsOf: topic)
        data.append(contentsOf: message.payload)
        return data
    }

    static func decode(_ body: ArraySlice<UInt8>) -> MQTTMessage? {
        let bytes = Array(body)
        guard bytes.count >= 7, bytes[0] == 1, let qos = MQTTQoS(rawValue: Int32(bytes[1])), bytes[2] <= 1 else { return nil }
        let length = Int(bytes[3]) << 24 | Int(bytes[4]) << 16 | Int(bytes[5]) << 8 | Int(bytes[6])
        guard bytes.count >= 7 + length else { return nil }
        let topic = String(decoding: bytes[7..<(7 + length)], as: UTF8.self)
        return MQTTMessage(topic: topic, payload: Array(bytes[(7 + length)...]), qos: qos, retain: bytes[2] == 1)
    }
}
