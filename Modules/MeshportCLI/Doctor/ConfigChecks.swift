import MeshTransport

/// The saved settings (`meshport use`): the file parses and its radio URL has a driver that
/// accepts it; and serve's config file (`serve --config`) when there is one.
enum ConfigChecks {
    /// Where the service's config file lives.
    static let servicePath = "/etc/meshport/meshport.toml"

    /// serve's config file read as serve reads it; the file's values when it is usable.
    static func serveFile(path: String) -> (DoctorCheck, ServeConfigFile?) {
        let name = "serve config"
        do {
            let file = try ServeConfigFile.load(path)
            return (.ok(name, "\(path) reads"), file)
        } catch {
            return (.problem(name, error.description,
                             fix: "correct \(path)\(error.line.map { " at line \($0)" } ?? "") (Docs/serve.example.toml shows every key), "
                                + "then meshport serve --config \(path) --check-config"), nil)
        }
    }

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
