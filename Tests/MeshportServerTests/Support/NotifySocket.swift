import Foundation
import MeshportTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A unix datagram socket standing in for systemd's notification socket: bound at `address`
/// (a path, or `@name` in the abstract namespace), it collects what serve sends.
final class NotifySocket: Sendable {
    let address: String
    private let fd: Int32

    init(_ address: String) throws {
        self.address = address
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        withUnsafeMutableBytes(of: &local.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw TestFailure("bind \(address): \(String(cString: strerror(errno)))") }
        // Reads wake every 200 ms, so a wait ends on time.
        var wait = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The next datagram, or nil when none came within `seconds`.
    func next(within seconds: Double) async -> String? {
        let fd = fd
        return await offPool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { return String(decoding: buffer[..<n], as: UTF8.self) }
            }
            return nil
        }
    }

    /// Datagrams until one satisfies `wanted` (returned with those before it), or nil when
    /// `seconds` pass first.
    func until(within seconds: Double, _ wanted: (String) -> Bool) async -> [String]? {
        let deadline = Date().addingTimeInterval(seconds)
        var seen: [String] = []
        while Date() < deadline {
            guard let message = await next(within: deadline.timeIntervalSinceNow) else { return nil }
            seen.append(message)
            if wanted(message) { return seen }
        }
        return nil
    }
}
