import Foundation

/// Checks JSON values against the part of JSON Schema that Docs/openapi.json uses: `type` (one
/// or a list), `properties`, `required`, `additionalProperties: false`, `items`, `enum`,
/// `pattern`, `minimum`, `maximum` and `$ref` to `#/components/schemas/...`. Anything else in
/// a schema is an error, so the document cannot grow a keyword this validator ignores.
struct SchemaValidator {
    let document: [String: Any]
    static let known: Set<String> = ["type", "properties", "required", "additionalProperties", "items", "enum", "pattern", "minimum", "maximum",
                                     "$ref", "description", "format"]

    static func openAPI() throws -> SchemaValidator {
        // Tests/MeshportServerTests/Support/SchemaValidator.swift -> the repository's Docs/.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Docs/openapi.json"))
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw TestFailure("openapi.json is not an object") }
        return SchemaValidator(document: document)
    }

    var paths: [String: [String: Any]] { (document["paths"] as? [String: [String: Any]]) ?? [:] }

    /// The operation documented for `method` on the templated `path`.
    func operation(_ method: String, _ path: String) -> [String: Any]? { paths[path]?[method.lowercased()] as? [String: Any] }

    /// The schema of the answer with `status` (JSON content), or an error saying it is not documented.
    func responseSchema(_ method: String, _ path: String, status: Int) throws -> [String: Any]? {
        guard let op = operation(method, path) else { throw TestFailure("\(method) \(path) is not in openapi.json") }
        guard let responses = op["responses"] as? [String: Any], let response = responses[String(status)] as? [String: Any] else {
            throw TestFailure("\(method) \(path) answered \(status), which openapi.json does not list")
        }
        guard let content = response["content"] as? [String: Any] else { return nil }
        return (content["application/json"] as? [String: Any])?["schema"] as? [String: Any]
    }

    /// Every way `value` breaks `schema`, each with its JSON path.
    func errors(_ value: Any, _ schema: [String: Any], at path: String = "$") -> [String] {
        var out: [String] = []
        for key in schema.keys where !Self.known.contains(key) { out.append("\(path): schema keyword \(key) is not supported") }
        if let ref = schema["$ref"] as? String {
            guard let target = resolve(ref) else { return ["\(path): unresolved \(ref)"] }
            return out + errors(value, target, at: path)
        }
        if let types = schema["type"] {
            let list = (types as? [String]) ?? [(types as? String) ?? "?"]
            guard list.contains(where: { Self.matches(value, $0) }) else { return out + ["\(path): \(Self.describe(value)) is not \(list.joined(separator: " or "))"] }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            out.append("\(path): \(value) is not one of \(options)")
        }
        if let pattern = schema["pattern"] as? String, let text = value as? String, text.range(of: pattern, options: .regularExpression) == nil {
            out.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let number = (value as? NSNumber)?.doubleValue, !(value is Bool) {
            if let min = (schema["minimum"] as? NSNumber)?.doubleValue, number < min { out.append("\(path): \(number) < minimum \(min)") }
            if let max = (schema["maximum"] as? NSNumber)?.doubleValue, number > max { out.append("\(path): \(number) > maximum \(max)") }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil { out.append("\(path): missing \(name)") }
            for (name, field) in object {
                if let property = properties[name] {
                    out += errors(field, property, at: "\(path).\(name)")
                } else if schema["additionalProperties"] as? Bool == false {
                    out.append("\(path): \(name) is not documented")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (i, element) in array.enumerated() { out += errors(element, items, at: "\(path)[\(i)]") }
        }
        return out
    }

    private func resolve(_ ref: String) -> [String: Any]? {
        let prefix = "#/components/schemas/"
        guard ref.hasPrefix(prefix) else { return nil }
        return ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[String(ref.dropFirst(prefix.count))] as? [String: Any]
    }

    static func matches(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool(value)
        case "integer": return !isBool(value) && (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": return !isBool(value) && value is NSNumber
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func isBool(_ value: Any) -> Bool {
        // JSONSerialization's true and false are NSNumbers of type "c"; numbers are "i", "q" or "d".
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    static func equal(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? String, let b = b as? String { return a == b }
        if let a = a as? NSNumber, let b = b as? NSNumber { return a == b }
        return false
    }

    static func describe(_ value: Any) -> String {
        let text = "\(value)"
        return text.count > 80 ? String(text.prefix(80)) + "..." : text
    }
}
