import ArgumentParser
import MeshSim

/// `meshport sim --fault KEY=VALUE`: link faults on the command line, over the scenario's.
extension Sim {
    /// Command-line keys and the scenario fields they set.
    static let faultKeys: [(key: String, field: String, value: String)] = [
        ("drop-at", "dropLinkAtFrame", "N"), ("drop-chance", "dropChance", "P"), ("delay-ms", "delayMs", "N"),
        ("corrupt-chance", "corruptChance", "P"), ("stall-at", "stallAtFrame", "N"), ("stall-seconds", "stallSeconds", "S"),
        ("seed", "seed", "N"),
    ]

    /// The `--fault` settings as a scenario `faults` section; a later setting of a key wins.
    static func faultOverrides(_ settings: [String]) throws -> FaultSpec {
        var spec = FaultSpec()
        var given: [String: String] = [:]   // field -> "key=value", for messages
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            let known = faultKeys.map(\.key).joined(separator: ", ")
            guard parts.count == 2, !parts[1].isEmpty else { throw ValidationError("--fault \"\(setting)\": expected KEY=VALUE with KEY one of \(known)") }
            let (key, value) = (parts[0], parts[1])
            guard let entry = faultKeys.first(where: { $0.key == key }) else { throw ValidationError("--fault \(setting): unknown key \"\(key)\" (\(known))") }
            func number<T: LosslessStringConvertible>(_: T.Type, _ kind: String) throws -> T {
                guard let v = T(value) else { throw ValidationError("--fault \(setting): \"\(value)\" is not \(kind)") }
                return v
            }
            switch key {
            case "drop-at": spec.dropLinkAtFrame = try number(Int.self, "a whole number")
            case "drop-chance": spec.dropChance = try number(Double.self, "a number")
            case "delay-ms": spec.delayMs = try number(Int.self, "a whole number")
            case "corrupt-chance": spec.corruptChance = try number(Double.self, "a number")
            case "stall-at": spec.stallAtFrame = try number(Int.self, "a whole number")
            case "stall-seconds": spec.stallSeconds = try number(Double.self, "a number")
            default: spec.seed = try number(UInt64.self, "a seed (0-\(UInt64.max))")
            }
            given[entry.field] = setting
        }
        // The scenario's range checks, reported in command-line terms.
        do {
            try spec.checkRanges(at: "")
        } catch let error as ScenarioError {
            throw ValidationError("--fault \(given[error.location] ?? error.location): \(error.problem)")
        }
        return spec
    }

    /// The faults to serve with: the scenario's, overridden by `--fault`; nil when none is active.
    static func activeFaults(scenario: Scenario?, overrides: FaultSpec, seed: UInt64?) throws -> SimFaults? {
        // The scenario's own section first, so its mistakes are reported at its fields.
        var merged = scenario ?? Scenario()
        _ = try merged.faults(seed: seed)
        merged.faults = (merged.faults ?? FaultSpec()).merging(overrides)
        if overrides.stallSeconds != nil, merged.faults?.stallAtFrame == nil {
            throw ValidationError("--fault stall-seconds needs stall-at=N (here or in the scenario's faults)")
        }
        guard let faults = try merged.faults(seed: seed), !faults.isEmpty else { return nil }
        return faults
    }
}
