import Foundation
import MeshServices

/// What became of one command, published on `meshport/{KEY}/sent`: `result` is `accepted` (a
/// DM the radio sent; its ACK is awaited), `delivered`, `sent` (a channel message: never
/// acknowledged), `failed` (sent, but no ACK or a later step failed) or `rejected` (nothing was
/// sent). `error` and `reason` say why for the last two; `message` is the stored message as
/// `/api/events` shows it.
struct HomeOutcome: Encodable, Sendable, Equatable {
    enum Result: String, Encodable, Sendable {
        case accepted, delivered, sent, failed, rejected
    }

    var id: String?
    var result: Result
    var error: String?
    var reason: String?
    var message: MessageJSON?

    init(id: String?, result: Result, message: MessageJSON? = nil) {
        self.id = id
        self.result = result
        self.message = message
    }

    init(id: String?, result: Result, failure: HomeCommandError, message: MessageJSON? = nil) {
        self.init(id: id, result: result, message: message)
        error = failure.code
        reason = failure.description
    }

    /// One line of JSON with sorted keys, as the event schema writes.
    func payload() throws -> [UInt8] { Array(try EventJSON.encoder.encode(self)) }
}
