import MeshTransport

/// The driver plugins: at least one loaded, none refused.
enum PluginChecks {
    static func run(_ loader: PluginLoader, searched: [(directory: String, builtIn: Bool)]) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        if loader.loaded.isEmpty {
            checks.append(.problem(
                "plugins", "no driver loaded; searched \(searched.map(\.directory).joined(separator: ", "))",
                fix: "install the drivers (libMeshportDriver*.so) beside meshport or in ../lib/meshport/plugins, "
                    + "or export MESHPORT_PLUGIN_PATH=FOLDER naming the folder that holds them"))
        } else {
            let drivers = loader.loaded.map { "\($0.name) (\($0.schemes.joined(separator: ", ")))" }
            checks.append(.ok("plugins", "\(loader.loaded.count) drivers loaded: \(drivers.joined(separator: ", "))"))
        }
        for refused in loader.refused {
            checks.append(.problem("plugin \(refused.path)", "refused: \(refused.reason)", fix: fix(for: refused)))
        }
        return checks
    }

    /// The loader's own command when its reason names one, else what to do with the file.
    private static func fix(for refused: RefusedDriver) -> String {
        if let run = refused.reason.range(of: "; run: ") { return String(refused.reason[run.upperBound...]) }
        return "rebuild it against this meshport's meshport_driver.h (Docs/plugin-authoring.md), or remove \(refused.path)"
    }
}
