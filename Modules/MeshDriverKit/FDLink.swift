import MeshDriverABI
#if canImport(Glibc)
import Glibc
#endif

/// A link over a file descriptor (socket or tty): a reader thread polls the descriptor and a
/// wake pipe, delivers what it reads, and reports the link lost once on EOF or error.
/// `close` wakes the thread, waits for it, then closes the descriptor, so no callback
/// runs after `close` returns.
public final class FDLink: MeshLink, @unchecked Sendable {
    public let fd: Int32
    private let events: LinkEvents
    private let describe: String
    private let sendTimeoutMs: Int32
    private let socket: Bool
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var thread: pthread_t?
    private var closing = false
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// `fd` must be non-blocking; the link owns it from now on.
    public init(fd: Int32, events: LinkEvents, describe: String, sendTimeoutMs: Int32 = 5000) throws(DriverFailure) {
        self.fd = fd
        self.events = events
        self.describe = describe
        self.sendTimeoutMs = sendTimeoutMs
        socket = isSocket(fd)
        pthread_mutex_init(lock, nil)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            Glibc.close(fd)
            throw DriverFailure(MESHPORT_ERR_OTHER, "cannot create wake pipe: \(errnoText())")
        }
        wake = (fds[0], fds[1])
        for f in fds {
            _ = fcntl(f, F_SETFD, FD_CLOEXEC)
            _ = fcntl(f, F_SETFL, O_NONBLOCK)
        }
        let unmanaged = Unmanaged.passRetained(self)
        var t = pthread_t()
        let rc = pthread_create(&t, nil, { arg in
            let link = Unmanaged<FDLink>.fromOpaque(arg!).takeRetainedValue()
            link.readLoop()
            return nil
        }, unmanaged.toOpaque())
        guard rc == 0 else {
            unmanaged.release()
            Glibc.close(fd); Glibc.close(wake.read); Glibc.close(wake.write)
            throw DriverFailure(MESHPORT_ERR_OTHER, "cannot start reader thread: \(String(cString: strerror(rc)))")
        }
        thread = t
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    public func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(DriverFailure) {
        var offset = 0
        while offset < bytes.count {
            let n = writeNoSignal(fd, bytes.baseAddress! + offset, bytes.count - offset, socket: socket)
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let r = poll(&p, 1, sendTimeoutMs)
                if r == 0 { throw DriverFailure(MESHPORT_ERR_TIMEOUT, "write to \(describe) blocked for \(sendTimeoutMs) ms") }
                continue
            }
            if n < 0 && errno == EINTR { continue }
            throw DriverFailure(MESHPORT_ERR_LINK_LOST, "write to \(describe) failed: \(errnoText())")
        }
    }

    public func close() {
        pthread_mutex_lock(lock)
        closing = true
        pthread_mutex_unlock(lock)
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
        if let thread { pthread_join(thread, nil) }
        thread = nil
        Glibc.close(fd)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let r = poll(&fds, 2, -1)
            if r < 0 && errno == EINTR { continue }
            if isClosing() { return }
            if r < 0 { return lost("poll on \(describe) failed: \(errnoText())") }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 {
                    buffer.withUnsafeBufferPointer { events.received(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                    continue
                }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                return lost(n == 0 ? "\(describe) closed the connection" : "read from \(describe) failed: \(errnoText())")
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return lost("\(describe) hung up")
            }
        }
    }

    private func isClosing() -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return closing
    }

    private func lost(_ message: String) {
        if !isClosing() { events.linkLost(DriverFailure(MESHPORT_ERR_LINK_LOST, message)) }
    }
}

public func errnoText() -> String { String(cString: strerror(errno)) }
