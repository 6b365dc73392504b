import ArgumentParser
import MeshServices

/// `meshport presets`: the regional LoRa settings `meshport set radio PRESET` takes by name.
struct Presets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the regional radio presets the MeshCore apps offer, for `meshport set radio PRESET`.",
        discussion: "A preset sets frequency, bandwidth, spreading factor and coding rate together; give its id or its name. "
            + "Every radio in a mesh must use the same values, and only those your region allows.")

    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        if json {
            try Output.json(RadioPreset.all.map { p in
                [
                    "id": p.id, "name": p.name, "frequencyMHz": Double(p.params.frequencyKHz) / 1000, "bandwidthKHz": Double(p.params.bandwidthHz) / 1000,
                    "spreadingFactor": Int(p.params.spreadingFactor), "codingRate": Int(p.params.codingRate),
                ] as [String: Any]
            })
            return
        }
        Output.table(["id", "name", "radio (freq,bw,sf,cr)"], RadioPreset.all.map { [$0.id, $0.name, $0.values] })
    }
}
