import Foundation
import MeshSim

/// `meshport sim --state FILE`: the radio's flash as JSON, written whole to a temporary
/// file and renamed, so a crash never leaves half a file.
enum SavedStateFile {
    static func restore(_ state: inout SimRadioState, from path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }   // first run: start fresh
        do {
            let saved = try JSONDecoder().decode(SimSavedState.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            try state.restore(saved)
        } catch let error as DecodingError {
            throw ScenarioError("\(path): \(ScenarioFile.location(error))", ScenarioFile.reason(error))
        } catch let error as ScenarioError {
            throw ScenarioError("\(path): \(error.location)", error.problem)
        } catch {
            throw ScenarioError(path, "cannot read the saved state: \(error.localizedDescription)")
        }
    }

    static func write(_ saved: SimSavedState, to path: String) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(saved).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            // The radio keeps running; the user learns the file is stale.
            StandardStream.error("meshport sim: cannot save the state to \(path): \(error.localizedDescription)\n")
        }
    }
}
