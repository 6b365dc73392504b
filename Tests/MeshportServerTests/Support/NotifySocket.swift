import Foundation
import MeshportTestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A unix datagram socket standing in for systemd's notification socket: bound at `address`
/// (a path, or `@name` in the abstract namespace). Like systemd it reads all the time, on a
/// thread of its own, so its queue never fills while a test waits for something else; with
/// `reading: false` it never reads, as a systemd that hangs.
final class NotifySocket: Sendable {
    let address: String
    private let fd: Int32
    private let inbox = Inbox()
    private let reading: Bool

    /// What the reading thread shares with the test.
    private final class Inbox: Sendable {
        let received = Mutex<[String]>([])
        let closing = Atomic(false)
        let finished = DispatchSemaphore(value: 0)
    }

    init(_ address: String, reading: Bool = true) throws {
        self.address = address
        self.reading = reading
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        withUnsafeMutableBytes(of: &local.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else {
            close(fd)
            throw TestFailure("bind \(address): \(String(cString: strerror(errno)))")
        }
        // Reads wake every 100 ms to see whether the socket is closing.
        var wait = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard reading else { return }
        let thread = Thread { [fd, inbox] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !inbox.closing.load(ordering: .relaxed) {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { inbox.received.withLock { $0.append(String(decoding: buffer[..<n], as: UTF8.self)) } }
            }
            inbox.finished.signal()
        }
        thread.start()
    }

    deinit {
        inbox.closing.store(true, ordering: .relaxed)
        if reading { inbox.finished.wait() }
        close(fd)
    }

    /// The next datagram not yet taken, or nil when none came within `seconds`.
    func next(within seconds: Double) async -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            let message = inbox.received.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let message { return message }
            guard ContinuousClock.now < deadline else { return nil }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                return nil
            }
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
