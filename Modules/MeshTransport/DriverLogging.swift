import Logging
import MeshDriverABI

/// The host's end of a driver's log (ABI 1.2 `set_log`): each line a driver writes goes to the
/// `meshport.driver` logger with the driver named in its metadata.
enum DriverLogging {
    /// Gives the driver of `descriptor` the host's log, when it takes one.
    static func connect(_ descriptor: meshport_driver_descriptor, name: String) {
        guard let setLog = descriptor.set_log else { return }
        var logger = Logger(label: "meshport.driver")
        logger[metadataKey: "driver"] = "\(name)"
        // Lives as long as the library may log: for the rest of the process.
        setLog(hostLog, Unmanaged.passRetained(DriverLogger(logger)).toOpaque())
    }

    static func level(_ level: meshport_log_level) -> Logger.Level {
        switch level {
        case MESHPORT_LOG_ERROR: .error
        case MESHPORT_LOG_WARNING: .warning
        case MESHPORT_LOG_NOTICE: .notice
        case MESHPORT_LOG_INFO: .info
        default: .debug
        }
    }
}

private final class DriverLogger: Sendable {
    let logger: Logger
    init(_ logger: Logger) { self.logger = logger }
}

private func hostLog(_ context: UnsafeMutableRawPointer?, _ level: meshport_log_level, _ message: UnsafePointer<CChar>?) {
    guard let context, let message else { return }
    let box = Unmanaged<DriverLogger>.fromOpaque(context).takeUnretainedValue()
    box.logger.log(level: DriverLogging.level(level), "\(String(cString: message))")
}
