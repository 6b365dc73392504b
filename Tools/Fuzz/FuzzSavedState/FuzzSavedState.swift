import Foundation
import MeshSim
import MeshportFuzzSupport

/// libFuzzer entry: the input is a saved radio (`meshport sim --state FILE`). A file that
/// decodes and restores must save again to a state that restores to the same saved state
/// (the radio's flash survives any number of reboots); a bad one ends in a `ScenarioError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSavedState(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let json = Data(UnsafeBufferPointer(start: data, count: size))
    guard let saved = try? JSONDecoder().decode(SimSavedState.self, from: json) else { return 0 }
    var state = freshRadio
    do {
        try state.restore(saved)
    } catch is ScenarioError {
        return 0
    } catch {
        fuzzFinding("restoring failed with an error that is no ScenarioError (\(error)): \(String(decoding: json, as: UTF8.self))")
    }
    do {
        let first = try state.saved(at: .zero)
        var rebooted = freshRadio
        try rebooted.restore(JSONDecoder().decode(SimSavedState.self, from: JSONEncoder().encode(first)))
        let second = try rebooted.saved(at: .zero)
        guard second == first else { fuzzFinding("a restored state saves differently: \(String(decoding: json, as: UTF8.self))") }
    } catch {
        fuzzFinding("a restored state does not save and restore again (\(error)): \(String(decoding: json, as: UTF8.self))")
    }
    return 0
}

/// A radio as first switched on; made once, since a new identity is most of a run's work.
private let freshRadio = SimRadioState(seed: 1)
