import Foundation
import MeshCodec
import MeshSim
import MeshportFuzzSupport

/// libFuzzer entry: the input is a scenario file (`meshport sim --scenario FILE`). One that
/// decodes must encode to JSON that decodes to the same scenario; one that builds must then
/// run: the builder checks every reference and range so that the simulation cannot fail
/// later, which the first simulated seconds test (no trap, no problem recorded, every push
/// encodable).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let json = Data(UnsafeBufferPointer(start: data, count: size))
    guard let scenario = try? JSONDecoder().decode(Scenario.self, from: json) else { return 0 }
    do {
        let again = try JSONDecoder().decode(Scenario.self, from: JSONEncoder().encode(scenario))
        guard again == scenario else { fuzzFinding("scenario JSON round trip differs: \(String(decoding: json, as: UTF8.self))") }
    } catch {
        fuzzFinding("a decoded scenario does not encode and decode again (\(error)): \(String(decoding: json, as: UTF8.self))")
    }
    guard var state = try? scenario.state() else { return 0 }
    run(&state, json)
    return 0
}

/// Advances the simulation in 100 ms steps through its first 5 s, or until it has pushed
/// 2,000 frames (a busy scenario's air), checking each push.
private func run(_ state: inout SimRadioState, _ json: Data) {
    var pushed = 0
    var now = Duration.zero
    while now < .seconds(5), pushed < 2_000 {
        now += .milliseconds(100)
        for frame in SimHandler.advance(&state, to: now) {
            pushed += 1
            do {
                _ = try frame.encode()
            } catch {
                fuzzFinding("the simulation pushed a frame it cannot encode (\(error)): \(String(decoding: json, as: UTF8.self))")
            }
        }
    }
    guard state.problems.isEmpty else { fuzzFinding("the simulation recorded problems \(state.problems): \(String(decoding: json, as: UTF8.self))") }
}
