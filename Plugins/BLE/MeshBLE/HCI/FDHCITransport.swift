import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HCI transport over a non-blocking file descriptor: a reader thread polls it and a wake
/// pipe and frames H4; `close` wakes the thread and waits for it, so nothing is delivered after.
class FDHCITransport: HCITransport, @unchecked Sendable {
    let spec: String
    private let fd: Int32
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var reader: Thread?
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var closing = false
    private let writeLock = NSLock()
    /// Sockets are written with MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE.
    private let isSocket: Bool

    /// Takes ownership of `fd` (non-blocking).
    init(fd: Int32, spec: String, isSocket: Bool) throws(HCITransportError) {
        self.fd = fd
        self.spec = spec
        self.isSocket = isSocket
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            Glibc.close(fd)
            throw HCITransportError(.other, "\(spec): cannot create a wake pipe: \(String(cString: strerror(errno)))")
        }
        wake = (fds[0], fds[1])
        for f in fds {
            _ = fcntl(f, F_SETFD, FD_CLOEXEC)
            _ = fcntl(f, F_SETFL, O_NONBLOCK)
        }
    }

    func start(deliver: @escaping @Sendable (Result<[HCIPacket], HCITransportError>) -> Void) throws(HCITransportError) {
        let thread = Thread { [self] in
            readLoop(deliver)
            done.signal()
        }
        thread.name = "meshport.hci"
        reader = thread
        thread.start()
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        let bytes = packet.h4
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { b in
                isSocket ? Glibc.send(fd, b.baseAddress! + offset, b.count - offset, Int32(MSG_NOSIGNAL))
                    : write(fd, b.baseAddress! + offset, b.count - offset)
            }
            if written > 0 { offset += written; continue }
            if written < 0 && (errno == EAGAIN || errno == EINTR) {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&p, 1, 2000) == 0 { throw HCITransportError(.lost, "\(spec): the controller accepted no data for 2 s") }
                continue
            }
            throw HCITransportError(.lost, "\(spec): write failed: \(String(cString: strerror(errno)))")
        }
    }

    func close() {
        lock.lock()
        let already = closing
        closing = true
        lock.unlock()
        if already { return }
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
        if reader != nil { done.wait() }
        Glibc.close(fd)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    private var isClosing: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closing
    }

    private func readLoop(_ deliver: @Sendable (Result<[HCIPacket], HCITransportError>) -> Void) {
        var framer = H4Framer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        func fail(_ message: String) {
            if !isClosing { deliver(.failure(HCITransportError(.lost, "\(spec): \(message)"))) }
        }
        while true {
            let r = poll(&fds, 2, -1)
            if isClosing { return }
            if r < 0 {
                if errno == EINTR { continue }
                return fail("poll failed: \(String(cString: strerror(errno)))")
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 {
                    do {
                        let packets = try framer.push(buffer[0..<n])
                        if !packets.isEmpty { deliver(.success(packets)) }
                    } catch {
                        return fail(error.description)
                    }
                    continue
                }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                return fail(n == 0 ? "the controller closed the connection" : "read failed: \(String(cString: strerror(errno)))")
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return fail("the controller hung up") }
        }
    }
}
