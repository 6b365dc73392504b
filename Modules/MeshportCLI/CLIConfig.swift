import Foundation

/// The saved settings in `Paths.configFile` (JSON): for now the default radio `meshport use` sets.
struct CLIConfig: Codable, Equatable {
    /// Transport URL used when a command gets no --radio.
    var radio: String?

    static func load(from path: String = Paths.configFile) throws -> CLIConfig {
        guard FileManager.default.fileExists(atPath: path) else { return CLIConfig() }
        do {
            return try JSONDecoder().decode(CLIConfig.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CLIError("cannot read the config \(path): \(error.localizedDescription); fix or delete the file")
        }
    }

    func save(to path: String = Paths.configFile) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("cannot write the config \(path): \(error.localizedDescription)")
        }
    }
}
