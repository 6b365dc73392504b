import ArgumentParser
import Logging

/// `--log-format` and `--log-level` of a long-running command without a config file
/// (`meshport ingest`; serve reads them from its file too).
struct LogOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Log lines on stderr: text (one line per event; journald's priorities under systemd) or json (one object per line).", valueName: "format"))
    var logFormat: LogFormat = .text

    @Option(help: ArgumentHelp("Log level on stderr: trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel = "notice"

    func validate() throws {
        if let why = ServeRules.logLevel(logLevel) { throw ValidationError("--log-level \(why)") }
    }

    func bootstrap() {
        StderrLogHandler.bootstrap(format: logFormat, level: Logger.Level(rawValue: logLevel) ?? .notice)
    }
}
