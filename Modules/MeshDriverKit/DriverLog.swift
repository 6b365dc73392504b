import MeshDriverABI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Swift driver's log (ABI 1.2): one sentence per line, to the host's log once the host has
/// given it (`set_log`), else to stderr, so a program that links the driver in still shows it.
public enum DriverLog {
    private struct Sink: @unchecked Sendable {
        var write: meshport_log_fn?
        var context: UnsafeMutableRawPointer?
    }

    private static let sink = Mutex(Sink())

    public static func error(_ message: String) { write(MESHPORT_LOG_ERROR, message) }
    public static func warning(_ message: String) { write(MESHPORT_LOG_WARNING, message) }
    public static func notice(_ message: String) { write(MESHPORT_LOG_NOTICE, message) }
    public static func info(_ message: String) { write(MESHPORT_LOG_INFO, message) }
    public static func debug(_ message: String) { write(MESHPORT_LOG_DEBUG, message) }

    public static func write(_ level: meshport_log_level, _ message: String) {
        let sink = sink.withLock { $0 }
        if let write = sink.write {
            message.withCString { write(sink.context, level, $0) }
        } else {
            let line = Array((message + "\n").utf8)
            _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// The descriptor's `set_log`.
    static func set(_ write: meshport_log_fn?, _ context: UnsafeMutableRawPointer?) {
        sink.withLock { $0 = Sink(write: write, context: context) }
    }
}

let exportSetLog: @convention(c) (meshport_log_fn?, UnsafeMutableRawPointer?) -> Void = { DriverLog.set($0, $1) }
