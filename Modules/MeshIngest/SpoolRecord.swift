import Foundation
import MeshMQTT

/// One message as the spool keeps it on disk: u32 body length, u32 CRC-32 of the body, then the
/// body: version 1, the receive time (i64 microseconds since 1970), u16 topic length, the topic,
/// the payload; all little-endian. A record cut short by a crash, or whose checksum does not
/// match, ends what is read of its segment.
public struct SpooledMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var receivedAt: Date

    public init(topic: String, payload: [UInt8], receivedAt: Date) {
        self.topic = topic
        self.payload = payload
        self.receivedAt = receivedAt
    }
}

enum SpoolRecord {
    static let headerSize = 8
    static let version: UInt8 = 1

    static func encode(_ message: SpooledMessage) -> [UInt8] {
        let topic = Array(message.topic.utf8.prefix(Int(UInt16.max)))
        var body: [UInt8] = [version]
        body.reserveCapacity(11 + topic.count + message.payload.count)
        let micros = Int64((message.receivedAt.timeIntervalSince1970 * 1_000_000).rounded())
        append(UInt64(bitPattern: micros), bytes: 8, to: &body)
        append(UInt64(topic.count), bytes: 2, to: &body)
        body += topic
        body += message.payload
        var record: [UInt8] = []
        record.reserveCapacity(headerSize + body.count)
        append(UInt64(body.count), bytes: 4, to: &record)
        append(UInt64(CRC32.checksum(body)), bytes: 4, to: &record)
        return record + body
    }

    enum Read {
        case record(SpooledMessage, size: Int)
        /// Nothing more can be read here: the end of the data, or a torn or damaged record.
        case end(torn: Bool)
    }

    /// The record starting at `offset` of `data`.
    static func read(_ data: [UInt8], at offset: Int) -> Read {
        guard offset < data.count else { return .end(torn: false) }
        guard offset + headerSize <= data.count else { return .end(torn: true) }
        let length = Int(number(data, offset, 4))
        let checksum = UInt32(number(data, offset + 4, 4))
        let start = offset + headerSize
        guard length >= 11, start + length <= data.count else { return .end(torn: true) }
        let body = data[start..<start + length]
        guard CRC32.checksum(body) == checksum, body[start] == version else { return .end(torn: true) }
        let micros = Int64(bitPattern: number(data, start + 1, 8))
        let topicLength = Int(number(data, start + 9, 2))
        guard 11 + topicLength <= length else { return .end(torn: true) }
        let topic = String(decoding: data[start + 11..<start + 11 + topicLength], as: UTF8.self)
        let payload = Array(data[start + 11 + topicLength..<start + length])
        let message = SpooledMessage(topic: topic, payload: payload, receivedAt: Date(timeIntervalSince1970: Double(micros) / 1_000_000))
        return .record(message, size: headerSize + length)
    }

    private static func append(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func number(_ data: [UInt8], _ offset: Int, _ bytes: Int) -> UInt64 {
        (0..<bytes).reduce(UInt64(0)) { $0 | UInt64(data[offset + $1]) << (8 * UInt64($1)) }
    }
}
