import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The one log handler of `meshport`: every module's `Logger` writes through it, one line per
/// event on stderr (`LogLine`), whole lines at once so threads never interleave within one.
struct StderrLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    /// stderr is journald's stream: priorities instead of times (`LogLine.text(journal:)`).
    let journal: Bool
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let own = event.metadata { all.merge(own) { $1 } }
        if let error = event.error { all["error"] = .string(String(describing: error)) }
        let line = LogLine(time: Date(), level: event.level, label: label, message: event.message.description, metadata: all)
        let text = format == .json ? line.json : line.text(journal: journal)
        StandardStream.error(text + "\n")
    }

    /// Sends every logger of this process through the handler, at `level`; call once, before
    /// any logger is made.
    static func bootstrap(format: LogFormat, level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let journal = format == .text && stderrIsJournal(environment)
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, format: format, journal: journal, logLevel: level) }
    }

    /// systemd sets `JOURNAL_STREAM=DEVICE:INODE` of the stream it connects; stderr is that
    /// stream unless it was redirected since.
    static func stderrIsJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return stream == "\(info.st_dev):\(info.st_ino)"
    }
}
