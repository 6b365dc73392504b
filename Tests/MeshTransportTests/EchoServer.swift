import Foundation
import MeshCodec
import MeshConformance
#if canImport(Glibc)
import Glibc
#endif

/// A TCP peer for transport tests: accepts one client at a time (a new one replaces the old,
/// as the firmware does) and answers every `<` frame with the same frame under `>`.
final class EchoServer: @unchecked Sendable {
    let port: Int
    private let serve: FrameServer
    private let listener: Int32
    private var thread: Thread?
    private let lock = NSLock()
    private var client: Int32 = -1
    private var stopped = false

    /// `serve` runs on its own thread for each client; the default echoes frames.
    init(serve: @escaping FrameServer = echoFrames) throws {
        self.serve = serve
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
        // Only shut it down: the serving thread owns the descriptor and closes it.
        if c >= 0 { shutdown(c, Int32(SHUT_RDWR)) }
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
            Thread { [self] in
                _ = serve(c, false) { false }
                // Forget it before closing, so its number, once reused, is never shut down.
                lock.withLock { if client == c { client = -1 } }
                shutdown(c, Int32(SHUT_RDWR))
                close(c)
            }.start()
        }
    }
}

/// Answers every `<` frame read from `fd` with the same frame under `>`, until EOF.
func echoFrames(_ fd: Int32, ptyMaster: Bool, stopped: () -> Bool) -> Bool {
    serveFrames(fd, ptyMaster: ptyMaster, stopped: stopped) { MinimalResponder.Reply(frames: [$0]) }
}

/// Answers like a radio through MinimalResponder (conformance hooks included).
func respondFrames(_ fd: Int32, ptyMaster: Bool, stopped: () -> Bool) -> Bool {
    var responder = MinimalResponder()
    return serveFrames(fd, ptyMaster: ptyMaster, stopped: stopped) { responder.answer($0) }
}

typealias FrameServer = @Sendable (_ fd: Int32, _ ptyMaster: Bool, _ stopped: () -> Bool) -> Bool

/// Serves frames until EOF or a drop hook; returns true when the far side must drop the link.
/// A pty master reads EIO while no slave is open: with `ptyMaster` that means wait, not stop.
@discardableResult
func serveFrames(_ fd: Int32, ptyMaster: Bool = false, stopped: () -> Bool = { false }, _ handle: ([UInt8]) -> MinimalResponder.Reply) -> Bool {
    var decoder = FrameDecoder(direction: .toRadio)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !stopped() {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && ptyMaster && errno == EIO {
            decoder.reset()
            usleep(2000)
            continue
        }
        if n <= 0 { return false }
        var out: [UInt8] = []
        var drop = false
        decoder.feed(buffer[0..<n]) { event in
            guard case let .frame(f) = event, !drop else { return }
            let reply = handle(f)
            out += reply.rawPrefix
            for frame in reply.frames {
                guard let framed = try? FrameEncoder.encode(frame, direction: .fromRadio) else { continue }
                out += reply.dropMidFrame ? Array(framed.prefix(framed.count / 2)) : framed
            }
            drop = reply.dropMidFrame
        }
        var off = 0
        while off < out.count {
            let w = out[off...].withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            if w <= 0 { return false }
            off += w
        }
        if drop { return true }
    }
    return false
}

/// A pseudo-terminal whose master side serves frames; the serial driver opens the slave.
/// A drop hook closes the master (the slave sees a hangup, as on an unplug) and a new pty
/// takes its place: `slavePath` then names the new one, as a replugged device gets a node.
final class PtyEcho: @unchecked Sendable {
    private let lock = NSLock()
    private var path = ""
    private var stopped = false
    private var master: Int32 = -1

    var slavePath: String { lock.withLock { path } }

    init(serve: @escaping FrameServer = echoFrames) throws {
        try makePty()
        Thread { [self] in
            while true {
                let fd = lock.withLock { master }
                let dropped = serve(fd, true) { [self] in lock.withLock { stopped } }
                Glibc.close(fd)
                if !dropped || lock.withLock({ stopped }) { return }
                do { try makePty() } catch { return }
            }
        }.start()
    }

    private func makePty() throws {
        // /dev/ptmx directly: unlock the slave and ask its number (what unlockpt/ptsname do).
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned): not exported to Swift.
        let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430
        guard fd >= 0, ioctl(fd, setLock, &unlock) == 0, ioctl(fd, getNumber, &number) == 0 else { throw POSIXError(.ENODEV) }
        // Raw master side so the tty layer does not translate bytes.
        var t = termios()
        tcgetattr(fd, &t)
        cfmakeraw(&t)
        tcsetattr(fd, TCSANOW, &t)
        lock.withLock {
            master = fd
            path = "/dev/pts/\(number)"
        }
    }

    func close() { lock.withLock { stopped = true } }
}
