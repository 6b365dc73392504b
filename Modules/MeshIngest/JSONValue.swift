import Foundation

/// A JSON document as read, so each field can be checked by name and type with a reason that
/// names it (the community tools send numbers as strings or as numbers).
enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        // Each `try?` asks whether the value is of one JSON type; the last decode reports a value
        // that is none of them. JSONDecoder converts between none of these types, so the order
        // only saves work: strings first, as the community tools send nearly every field as one.
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The top-level object of one message, read field by field.
struct JSONFields {
    let fields: [String: JSONValue]

    init(payload: [UInt8]) throws(IngestRejection) {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(payload))
        } catch {
            throw IngestRejection(.badJSON, "the payload is not JSON (\(payload.count) bytes)")
        }
        guard case .object(let fields) = value else {
            throw IngestRejection(.badJSON, "the payload is \(value.typeName), not a JSON object")
        }
        self.fields = fields
    }

    /// A string field; nil when absent or null.
    func text(_ name: String) throws(IngestRejection) -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw IngestRejection(.wrongType, "field `\(name)` is \(other.typeName), not a string")
        }
    }

    func requiredText(_ name: String) throws(IngestRejection) -> String {
        guard let value = try text(name) else { throw IngestRejection(.missingField, "field `\(name)` is missing") }
        return value
    }

    /// A number sent as a JSON number or as a numeric string; nil when absent, null or "".
    func number(_ name: String) throws(IngestRejection) -> Double? {
        switch fields[name] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            guard let value = Double(trimmed), value.isFinite else {
                throw IngestRejection(.wrongType, "field `\(name)` is \"\(text.prefix(40))\", not a number")
            }
            return value
        case let other?: throw IngestRejection(.wrongType, "field `\(name)` is \(other.typeName), not a number")
        }
    }

    /// A whole number, as `number` reads it.
    func integer(_ name: String) throws(IngestRejection) -> Int? {
        guard let value = try number(name) else { return nil }
        guard value.rounded() == value, abs(value) < 1e15 else {
            throw IngestRejection(.wrongType, "field `\(name)` is \(value), not a whole number")
        }
        return Int(value)
    }

    /// An object field as compact JSON text with sorted keys; nil when absent or null.
    func objectText(_ name: String) throws(IngestRejection) -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .object(let object)?:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                return String(decoding: try encoder.encode(object), as: UTF8.self)
            } catch {
                throw IngestRejection(.badValue, "field `\(name)` cannot be kept as JSON (\(error))")
            }
        case let other?: throw IngestRejection(.wrongType, "field `\(name)` is \(other.typeName), not an object")
        }
    }
}
