import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// systemd's readiness protocol without libsystemd: `KEY=VALUE` lines in one datagram to the
/// unix socket `$NOTIFY_SOCKET` names (a path, or `@name` for an abstract socket), as a unit
/// with `Type=notify` expects (`READY=1`, `STATUS=...`, `STOPPING=1`, `WATCHDOG=1`).
final class SystemdNotifier: Sendable {
    /// `WATCHDOG_USEC`, when the unit asks for keep-alives and they are meant for this process.
    let watchdogInterval: Duration?
    private let socket: Int32
    private let address: String

    /// nil when there is no `$NOTIFY_SOCKET`: serve then runs as it does outside systemd.
    init?(environment: [String: String]) throws(SystemdNotifyError) {
        guard let address = environment["NOTIFY_SOCKET"], !address.isEmpty else { return nil }
        guard address.hasPrefix("/") || address.hasPrefix("@") else { throw .badAddress(address) }
        guard address.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { throw .badAddress(address) }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotSend(address, String(cString: strerror(errno))) }
        socket = fd
        self.address = address
        watchdogInterval = Self.watchdog(environment)
    }

    deinit { close(socket) }

    /// The keep-alive period systemd wants, when `WATCHDOG_PID` (if set) is this process.
    private static func watchdog(_ environment: [String: String]) -> Duration? {
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        guard let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 else { return nil }
        return .microseconds(usec)
    }

    /// Sends `fields` (each `KEY=VALUE`, no newline inside) as one datagram. Never waits: a
    /// unix datagram socket holds only `net.unix.max_dgram_qlen` (10) unread datagrams, and a
    /// blocked send would stall the shutdown that sends `STOPPING=1`; when systemd is not
    /// reading, the message is dropped and `.notReading` thrown.
    func send(_ fields: [String]) throws(SystemdNotifyError) {
        let message = Array(fields.joined(separator: "\n").utf8)
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }   // abstract namespace: a leading NUL
        withUnsafeMutableBytes(of: &target.sun_path) { raw in raw.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                message.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), sockaddr, length) }
            }
        }
        guard sent != message.count else { return }
        if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw .notReading(address) }
        throw .cannotSend(address, String(cString: strerror(errno)))
    }
}

/// Why systemd could not be told something.
enum SystemdNotifyError: Error, Equatable, CustomStringConvertible {
    case badAddress(String)
    case cannotSend(String, String)
    case notReading(String)

    var description: String {
        switch self {
        case let .badAddress(address):
            "NOTIFY_SOCKET \"\(address)\" is neither an absolute path nor an abstract socket name (@name) that fits a unix socket address."
        case let .cannotSend(address, reason):
            "Cannot notify systemd through \(address): \(reason)."
        case let .notReading(address):
            "systemd is not reading its notification socket \(address) (its queue is full); the message was dropped."
        }
    }
}
