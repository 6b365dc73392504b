/// The kinds of reasons a community message is rejected for; the worker counts rejections by
/// them (their raw values are the names the counts and the logs use).
public enum IngestRejectionKind: String, Sendable, CaseIterable {
    case unknownTopic = "unknown-topic"
    case badJSON = "bad-json"
    case missingField = "missing-field"
    case wrongType = "wrong-type"
    case badValue = "bad-value"
    case notHex = "not-hex"
    case keyMismatch = "key-mismatch"
    case forgedAdvert = "forged-advert"
}

/// Why a message on the community topics could not become a report or a hearing: its kind,
/// and the sentence kept with the message (`RejectedMessage.reason`).
struct IngestRejection: Error, Sendable, Equatable, CustomStringConvertible {
    typealias Kind = IngestRejectionKind

    let kind: Kind
    let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
