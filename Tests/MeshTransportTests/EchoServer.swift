import Foundation
import MeshCodec
#if canImport(Glibc)
import Glibc
#endif

/// A TCP peer for transport tests: accepts one client at a time (a new one replaces the old,
/// as the firmware does) and answers every `<` frame with the same frame under `>`.
final class EchoServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private var thread: Thread?
    private let lock = NSLock()
    private var client: Int32 = -1
    private var stopped = false

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        listener = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
        let t = Thread { [self] in acceptLoop() }
        thread = t
        t.start()
    }

    /// Drops the current client, as a radio that lost its link would.
    func dropClient() {
        lock.lock()
        let c = client
        client = -1
        lock.unlock()
        if c >= 0 { shutdown(c, Int32(SHUT_RDWR)); close(c) }
    }

    func stop() {
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
            lock.lock()
            if stopped { lock.unlock(); close(c); return }
            let old = client
            client = c
            lock.unlock()
            if old >= 0 { shutdown(old, Int32(SHUT_RDWR)) }
            Thread { echoFrames(c) }.start()
        }
    }
}

/// Answers every `<` frame read from `fd` with the same frame under `>`, until EOF.
func echoFrames(_ fd: Int32) {
    var decoder = FrameDecoder(direction: .toRadio)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { return }
        var replies: [UInt8] = []
        decoder.feed(buffer[0..<n]) { event in
            if case let .frame(f) = event, let framed = try? FrameEncoder.encode(f, direction: .fromRadio) { replies += framed }
        }
        var off = 0
        while off < replies.count {
            let w = replies[off...].withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            if w <= 0 { return }
            off += w
        }
    }
}

/// A pseudo-terminal pair whose master side echoes frames: the serial driver opens the slave.
final class PtyEcho: @unchecked Sendable {
    let master: Int32
    let slavePath: String

    init() throws {
        // /dev/ptmx directly: unlock the slave and ask its number (what unlockpt/ptsname do).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned): not exported to Swift.
        let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw POSIXError(.ENODEV)
        }
        slavePath = "/dev/pts/\(number)"
        // Raw master side so the tty layer does not translate bytes.
        var t = termios()
        tcgetattr(master, &t)
        cfmakeraw(&t)
        tcsetattr(master, TCSANOW, &t)
        let fd = master
        Thread { echoFrames(fd) }.start()
    }

    func close() { Glibc.close(master) }
}
