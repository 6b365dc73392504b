import MeshCodec

/// A community topic, `meshcore/{IATA}/{KEY}/packets` or `.../status` (Docs/gateway.md, "Topics"):
/// the region code and the observer's public key.
struct IngestTopic: Sendable, Equatable {
    enum Kind: String, Sendable {
        case packets, status
    }

    let region: String
    let observerKey: [UInt8]
    let kind: Kind

    init(_ topic: String) throws(IngestRejection) {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, levels[0] == "meshcore" else {
            throw IngestRejection(.unknownTopic, "the topic is not meshcore/{IATA}/{KEY}/packets or .../status")
        }
        guard let kind = Kind(rawValue: String(levels[3])) else {
            throw IngestRejection(.unknownTopic, "the topic's last level \"\(levels[3])\" is neither packets nor status")
        }
        let region = String(levels[1])
        guard !region.isEmpty, region.utf8.count <= 16, region.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }) else {
            throw IngestRejection(.unknownTopic, "the topic's region \"\(region.prefix(20))\" is not 1 to 16 letters or digits")
        }
        guard levels[2].utf8.count == 2 * PublicKey.size, let key = Hex.decode(String(levels[2])) else {
            throw IngestRejection(.unknownTopic, "the topic's key \"\(levels[2].prefix(70))\" is not 64 hex digits")
        }
        self.region = region.uppercased()
        observerKey = key
        self.kind = kind
    }

    /// Checks that a message's `origin_id` names the same radio as the topic.
    func check(originID: String) throws(IngestRejection) {
        guard let key = Hex.decode(originID), key.count == PublicKey.size else {
            throw IngestRejection(.notHex, "field `origin_id` (\"\(originID.prefix(70))\") is not 64 hex digits")
        }
        guard key == observerKey else {
            throw IngestRejection(.keyMismatch, "field `origin_id` \(Hex.encode(key).uppercased()) is not the topic's key \(Hex.encode(observerKey).uppercased())")
        }
    }
}
