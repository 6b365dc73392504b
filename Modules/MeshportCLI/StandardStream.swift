import Foundation

/// Writes to stdout or stderr without trapping when their reader has gone (a closed pipe, a
/// restarted journald): once SIGPIPE is ignored, as swift-nio ignores it, Foundation's
/// non-throwing `FileHandle.write(_:)` traps on EPIPE and takes the whole server down.
enum StandardStream {
    static func output(_ text: String) { write(text, to: .standardOutput) }
    static func error(_ text: String) { write(text, to: .standardError) }

    private static func write(_ text: String, to handle: FileHandle) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            // The reader is gone: nothing is left to tell, and the program goes on.
        }
    }
}
