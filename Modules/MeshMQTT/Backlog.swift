import Foundation

/// The outgoing messages not yet acknowledged by the broker, oldest first, at most `capacity`:
/// appending to a full backlog drops the oldest. QoS 1 messages are also kept as one file each
/// in `folder` (when given) until acknowledged, so a restarted process sends them again.
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
    let folder: URL?
    /// The files in `folder` (nil without one).
    private var files: BacklogFiles?
    private(set) var dropped = 0
    /// Sequence numbers in order; entries whose message is gone are skipped (`head` moves past them).
    private var order: [UInt64] = []
    private var head = 0
    private var messages: [UInt64: MQTTMessage] = [:]
    private var nextSequence: UInt64 = 1

    /// Loads the messages a previous process left in `folder`; an unreadable file is removed
    /// and counted as dropped.
    init(capacity: Int, folder: URL?) throws(MQTTError) {
        self.capacity = max(1, capacity)
        self.folder = folder
        guard let folder else { return }
        files = BacklogFiles(directory: folder.path)
        let names: [String]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .persistence(folder: folder.path, detail: "\(error.localizedDescription)")
        }
        // Spares, and a write cut short by a crash, are left from an earlier process (BacklogFiles.swift).
        for name in names where name.hasSuffix(BacklogFiles.spareSuffix) || name.hasSuffix(Self.fileSuffix + ".tmp") {
            if let failure = BacklogFiles.discard(folder.appendingPathComponent(name).path) {
                throw .persistence(folder: folder.path, detail: "removing \(name): \(failure)")
            }
        }
        let stored = names.compactMap { name -> UInt64? in
            guard name.hasSuffix(Self.fileSuffix) else { return nil }
            return UInt64(name.dropLast(Self.fileSuffix.count))
        }.sorted()
        for sequence in stored {
            if let data = FileManager.default.contents(atPath: filePath(sequence)), let message = Self.decode(data) {
                messages[sequence] = message
                order.append(sequence)
            } else {
                dropped += 1
                try removeFile(sequence)
            }
            nextSequence = sequence + 1
        }
        while messages.count > self.capacity { try dropOldest() }
    }

    var count: Int { messages.count }

    /// Appends `message` (writing it to disk first when it is QoS 1), dropping the oldest if full.
    mutating func append(_ message: MQTTMessage) throws(MQTTError) {
        let sequence = nextSequence
        let path = filePath(sequence)
        if let folder, message.qos == .atLeastOnce, let failure = files?.write(Self.encode(message), to: path) {
            throw .persistence(folder: folder.path, detail: "writing message \(sequence): \(failure)")
        }
        nextSequence += 1
        while messages.count >= capacity { try dropOldest() }
        messages[sequence] = message
        order.append(sequence)
    }

    /// Forgets an acknowledged message; unknown sequences (already dropped) are ignored.
    mutating func remove(_ sequence: UInt64) throws(MQTTError) {
        guard let message = messages.removeValue(forKey: sequence) else { return }
        if message.qos == .atLeastOnce { try removeFile(sequence) }
        compact()
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
        guard let message = messages.removeValue(forKey: sequence) else { return }
        dropped += 1
        if message.qos == .atLeastOnce { try removeFile(sequence) }
        compact()
    }

    /// Moves `head` past removed messages and trims the order array once half of it is behind.
    private mutating func compact() {
        while head < order.count, messages[order[head]] == nil { head += 1 }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }

    private static let fileSuffix = ".msg"

    /// Zero-padded, so the folder lists in sending order.
    private static func fileName(_ sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + fileSuffix
    }

    /// Spelled as text, not through `URL`: a path is made twice for every QoS 1 message.
    private func filePath(_ sequence: UInt64) -> String { (files?.directory ?? "") + "/" + Self.fileName(sequence) }

    private mutating func removeFile(_ sequence: UInt64) throws(MQTTError) {
        guard let folder else { return }
        let path = filePath(sequence)
        if let failure = files?.remove(path) {
            throw .persistence(folder: folder.path, detail: "removing \(Self.fileName(sequence)): \(failure)")
        }
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

    static func decode(_ data: Data) -> MQTTMessage? {
        let bytes = [UInt8](data)
        guard bytes.count >= 7, bytes[0] == 1, let qos = MQTTQoS(rawValue: Int32(bytes[1])), bytes[2] <= 1 else { return nil }
        let length = Int(bytes[3]) << 24 | Int(bytes[4]) << 16 | Int(bytes[5]) << 8 | Int(bytes[6])
        guard bytes.count >= 7 + length else { return nil }
        let topic = String(decoding: bytes[7..<(7 + length)], as: UTF8.self)
        return MQTTMessage(topic: topic, payload: Array(bytes[(7 + length)...]), qos: qos, retain: bytes[2] == 1)
    }
}
