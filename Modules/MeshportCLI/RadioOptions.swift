import ArgumentParser
import Foundation

/// Options of every command that talks to a radio.
struct RadioOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The radio's transport URL (tcp://HOST:PORT, serial:///dev/ttyACM0, ...); default: $MESHPORT_RADIO, then the one `meshport use` saved.",
                               valueName: "url"))
    var radio: String?

    @Option(help: ArgumentHelp("History database; default: $MESHPORT_DB, then $XDG_DATA_HOME/meshport/meshport.db.", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Seconds to wait for each answer from the radio.", valueName: "seconds"))
    var timeout: Double = 5

    @Flag(help: "Print the result as JSON.") var json = false

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds, not \(timeout)") }
    }

    var databasePath: String { db ?? Paths.database }

    /// --radio, then $MESHPORT_RADIO, then the saved default.
    func radioURL() throws -> String {
        if let radio { return radio }
        if let env = Paths.environment["MESHPORT_RADIO"], !env.isEmpty { return env }
        if let saved = try CLIConfig.load().radio { return saved }
        throw CLIError("no radio chosen: pass --radio URL, or save a default with `meshport use URL` (`meshport scan` lists radios)",
                       status: .usage)
    }
}
