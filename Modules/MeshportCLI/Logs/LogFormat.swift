import ArgumentParser

/// How the daemon commands write their log on stderr: `text` (one line per event, for people
/// and journald) or `json` (one object per line, for collectors).
enum LogFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json
}
