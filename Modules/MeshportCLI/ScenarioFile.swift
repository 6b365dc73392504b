import Foundation
import MeshSim

/// Reads a scenario file; a JSON or scenario problem becomes one `ScenarioError` naming the
/// file and the place in it.
enum ScenarioFile {
    static func load(_ path: String) throws -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScenarioError(path, "cannot read the scenario: \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw ScenarioError("\(path): \(location(error))", reason(error))
        } catch {
            throw ScenarioError(path, "not a scenario: \(error.localizedDescription)")
        }
    }

    /// `nodes[2].via[0]`, from the decoder's coding path.
    static func location(_ error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case let .typeMismatch(_, c), let .valueNotFound(_, c), let .dataCorrupted(c): path = c.codingPath
        case let .keyNotFound(key, c): path = c.codingPath + [key]
        @unknown default: path = []
        }
        let text = path.reduce("") { text, key in key.intValue.map { "\(text)[\($0)]" } ?? (text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)") }
        return text.isEmpty ? "(top level)" : text
    }

    static func reason(_ error: DecodingError) -> String {
        switch error {
        case let .typeMismatch(type, _): "expected \(type)"
        case let .valueNotFound(type, _): "expected \(type), found null"
        case .keyNotFound: "required field missing"
        case let .dataCorrupted(c): c.underlyingError.map { "invalid JSON: \(($0 as NSError).userInfo[NSDebugDescriptionErrorKey] ?? $0)" } ?? c.debugDescription
        @unknown default: "\(error)"
        }
    }
}
