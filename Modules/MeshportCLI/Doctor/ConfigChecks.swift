import MeshTransport

/// The saved settings (`meshport use`): the file parses and its radio URL has a driver that
/// accepts it.
enum ConfigChecks {
    static func run(path: String, loader: PluginLoader) -> DoctorCheck {
        let name = "config"
        let config: CLIConfig
        do {
            config = try CLIConfig.load(from: path)
        } catch {
            return .problem(name, "\(error)", fix: "rm \(path), then save the radio again with meshport use URL")
        }
        guard let radio = config.radio else { return .ok(name, "no default radio saved (\(path))") }
        do {
            _ = try loader.target(try TransportURL.parsed(radio))
        } catch {
            return .problem(name, "the saved radio \(radio) cannot be used: \(error)",
                            fix: "meshport use URL with a radio meshport scan lists (or meshport use --clear)")
        }
        return .ok(name, "default radio \(radio) (\(path))")
    }
}
