import Foundation
import MeshCodec
import MeshRegion

/// Turns one message of the community topics into the record the region keeps (Docs/ingest.md):
/// a `packets` message into a `Hearing` (its `raw` decoded by MeshCodec when it can be), a
/// `status` message into an `ObserverReport`, and anything else into a `RejectedMessage` whose
/// reason says what and where. Pure: testable without a broker or a database.
public struct IngestDecoder: Sendable {
    public let channels: IngestChannels

    public init(channels: IngestChannels = IngestChannels()) {
        self.channels = channels
    }

    public func decode(topic: String, payload: [UInt8], receivedAt: Date) -> IngestRecord {
        do {
            let parsed = try IngestTopic(topic)
            let fields = try JSONFields(payload: payload)
            switch parsed.kind {
            case .packets: return .hearing(try hearing(parsed, fields))
            case .status: return .observer(try observer(parsed, fields))
            }
        } catch {
            return .rejected(RejectedMessage(topic: topic, reason: error.description, payload: payload, receivedAt: receivedAt),
                             kind: error.kind)
        }
    }

    private func hearing(_ topic: IngestTopic, _ fields: JSONFields) throws(IngestRejection) -> Hearing {
        try topic.check(originID: try fields.requiredText("origin_id"))
        let heardAt = try CommunityTimestamp.parse(try fields.requiredText("timestamp"))
        let direction: Hearing.Direction
        switch try fields.text("direction")?.lowercased() {
        case nil, "rx": direction = .rx
        case "tx": direction = .tx
        case let other?: throw IngestRejection(.badValue, "field `direction` is \"\(other.prefix(20))\", not rx or tx")
        }
        let rawText = try fields.requiredText("raw")
        guard !rawText.isEmpty, let raw = Hex.decode(rawText) else {
            throw IngestRejection(.notHex, "field `raw` (\"\(rawText.prefix(40))\") is not hex digits")
        }
        return Hearing(observerKey: topic.observerKey, region: topic.region, heardAt: heardAt, direction: direction, raw: raw,
                       snr: try fields.number("SNR"), rssi: try fields.integer("RSSI"),
                       decoded: try PacketReader.read(raw, channels: channels))
    }

    private func observer(_ topic: IngestTopic, _ fields: JSONFields) throws(IngestRejection) -> ObserverReport {
        try topic.check(originID: try fields.requiredText("origin_id"))
        let online: Bool
        switch try fields.requiredText("status").lowercased() {
        case "online": online = true
        case "offline": online = false
        case let other: throw IngestRejection(.badValue, "field `status` is \"\(other.prefix(20))\", not online or offline")
        }
        return ObserverReport(key: topic.observerKey, region: topic.region, name: try fields.text("origin") ?? "", online: online,
                              reportedAt: try CommunityTimestamp.parse(try fields.requiredText("timestamp")),
                              model: try fields.text("model"), firmware: try fields.text("firmware_version"),
                              clientVersion: try fields.text("client_version"), radio: try fields.text("radio"),
                              statsJSON: try fields.objectText("stats"))
    }
}
