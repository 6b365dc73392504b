import Foundation

/// One message to send, as published on `meshport/{KEY}/send`:
/// `{"to": "NAME or key prefix", "text": "..."}` for a DM or `{"channel": N, "text": "..."}`
/// for a channel slot; an optional `"id"` (text) comes back in each outcome.
struct HomeCommand: Sendable, Equatable {
    enum Recipient: Sendable, Equatable {
        case contact(String)
        case channel(UInt8)
    }

    var id: String?
    var recipient: Recipient
    var text: String
}

extension HomeCommand {
    private struct Fields: Decodable {
        var id: String?
        var to: String?
        var channel: Int?
        var text: String?
    }

    /// Reads a command; bad JSON or a missing, conflicting or wrong field throws `.badCommand`
    /// with the field and what is wrong, and the command's `id` once the JSON could be read.
    init(decoding payload: [UInt8]) throws(HomeCommandError) {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(payload))
        } catch let error as DecodingError {
            throw .badCommand(id: nil, reason: Self.describe(error))
        } catch {
            throw .badCommand(id: nil, reason: "not a JSON object: \(error)")
        }
        id = fields.id
        guard let text = fields.text else { throw .badCommand(id: id, reason: "\"text\" is missing") }
        self.text = text
        switch (fields.to, fields.channel) {
        case let (to?, nil):
            guard !to.isEmpty else { throw .badCommand(id: id, reason: "\"to\" is empty: give a contact's name or key prefix") }
            recipient = .contact(to)
        case let (nil, channel?):
            guard let slot = UInt8(exactly: channel) else { throw .badCommand(id: id, reason: "\"channel\" is \(channel), not a slot from 0 to 255") }
            recipient = .channel(slot)
        case (nil, nil):
            throw .badCommand(id: id, reason: "give \"to\" (a contact's name or key prefix) or \"channel\" (a slot number)")
        case (_?, _?):
            throw .badCommand(id: id, reason: "give \"to\" or \"channel\", not both")
        }
    }

    /// A decoding error as a sentence naming the field.
    private static func describe(_ error: DecodingError) -> String {
        let whole = "the payload is not a JSON object such as {\"to\": \"NAME\", \"text\": \"...\"}"
        switch error {
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            guard let field = context.codingPath.last?.stringValue else { return whole }
            return "\"\(field)\" is not \(type == Int.self ? "a whole number" : "text")"
        case let .dataCorrupted(context):
            return context.codingPath.last.map { "\"\($0.stringValue)\" is not valid" } ?? whole
        case let .keyNotFound(key, _):
            return "\"\(key.stringValue)\" is missing"
        @unknown default:
            return whole
        }
    }
}
