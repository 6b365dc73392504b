import ArgumentParser
import Foundation
import MeshTransport

/// `meshport use URL`: the radio commands talk to when given no --radio.
struct Use: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Save the default radio (or show it, without a URL).",
        discussion: "Saved in $XDG_CONFIG_HOME/meshport/config.json (~/.config/meshport/config.json). $MESHPORT_RADIO and --radio take precedence.")

    @Argument(help: ArgumentHelp("Transport URL, e.g. tcp://192.168.1.20:5000 or serial:///dev/ttyACM0.", valueName: "url"))
    var url: String?

    @Flag(help: "Forget the saved radio.") var clear = false
    @Flag(help: "Print the result as JSON.") var json = false

    func validate() throws {
        if clear, url != nil { throw ValidationError("give a URL or --clear, not both") }
    }

    func run() async throws {
        try await reportingRadioErrors {
            var config = try CLIConfig.load()
            if let url {
                // The driver checks the URL now, not on the first command that uses it.
                _ = try RadioTarget.resolve(url)
                config.radio = url
                try config.save()
            } else if clear {
                config.radio = nil
                try config.save()
            }
            if json {
                try Output.json(["radio": config.radio.map { $0 as Any } ?? NSNull(), "config": Paths.configFile])
            } else {
                Output.lines([("radio", config.radio ?? "none (pass --radio URL, or `meshport use URL`)"), ("config", Paths.configFile)])
            }
        }
    }
}
