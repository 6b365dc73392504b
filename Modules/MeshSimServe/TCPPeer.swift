import Foundation
import MeshCodec
#if canImport(Glibc)
import Glibc
#endif

/// A radio-side peer on TCP loopback, for conformance runs, tests and benchmarks: accepts one
/// client at a time (a new one replaces the old, as the firmware does) and serves its frames.
public final class TCPPeer: @unchecked Sendable {
    public let port: Int
    private let serve: FramePeer
    private let listener: Int32
    private var thread: Thread?
    private let lock = NSLock()
    private var client: Int32 = -1
    private var stopped = false
    /// Signalled when the current client's serving thread ends (accept thread only).
    private var serving: DispatchSemaphore?

    /// `serve` runs on its own thread for each client. `port` 0 lets the system choose.
    public init(host: String = "127.0.0.1", port: UInt16 = 0, serve: @escaping FramePeer) throws {
        self.serve = serve
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else {
            close(fd)
            throw PeerError("cannot listen on \(host): not an IPv4 address")
        }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 8) == 0 else {
            let e = errno
            close(fd)
            throw PeerError("cannot listen on \(host):\(port): \(String(cString: strerror(e)))")
        }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        listener = fd
        self.port = Int(UInt16(bigEndian: addr.sin_port))
        let t = Thread { [self] in acceptLoop() }
        thread = t
        t.start()
    }

    /// Drops the current client, as a radio that lost its link would.
    public func dropClient() {
        lock.lock()
        let c = client
        client = -1
        lock.unlock()
        // Only shut it down: the serving thread owns the descriptor and closes it.
        if c >= 0 { shutdown(c, Int32(SHUT_RDWR)) }
    }

    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        dropClient()
    }

    private func acceptLoop() {
        while true {
            let c = accept(listener, nil, nil)
            if c < 0 { return }
            // Each frame leaves at once: with Nagle, a frame written right after another (a push,
            // then an answer) waits for the client's delayed ACK, up to 40 ms.
            var one: Int32 = 1
            setsockopt(c, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            lock.lock()
            if stopped { lock.unlock(); close(c); return }
            let old = client
            client = c
            lock.unlock()
            if old >= 0 { shutdown(old, Int32(SHUT_RDWR)) }
            // The old client is served to its end before the new one starts, as the firmware
            // serves one client at a time: otherwise a late start of the old one's session
            // could attach after the new one's and take its pushes.
            serving?.wait()
            let done = DispatchSemaphore(value: 0)
            serving = done
            Thread { [self] in
                _ = serve(c, false) { false }
                // Forget it before closing, so its number, once reused, is never shut down.
                lock.withLock { if client == c { client = -1 } }
                shutdown(c, Int32(SHUT_RDWR))
                close(c)
                done.signal()
            }.start()
        }
    }
}
