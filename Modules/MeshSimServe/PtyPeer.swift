import Foundation
import MeshCodec
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal whose master side serves frames; the serial driver opens the slave.
/// A reply that drops the link closes the master (the slave sees a hangup, as on an unplug)
/// and a new pty takes its place: `slavePath` then names the new one, as a replugged device
/// gets a node.
/// With `linkPath`, a symlink there always points at the current slave, as a udev
/// /dev/serial/by-id link does: one URL reaches the device across replugs. The slave starts
/// raw, as a port some program configured before; `cooked` leaves it as the kernel makes a
/// new tty (canonical, echoing), as a freshly plugged radio's.
public final class PtyPeer: @unchecked Sendable {
    private let lock = NSLock()
    private var path = ""
    private var stopped = false
    private var master: Int32 = -1
    private let linkPath: String?
    private let cooked: Bool

    /// The path to open: `linkPath` when given, else the current /dev/pts node.
    public var slavePath: String { linkPath ?? lock.withLock { path } }

    public init(serve: @escaping FramePeer, linkPath: String? = nil, cooked: Bool = false) throws {
        self.linkPath = linkPath
        self.cooked = cooked
        try makePty()
        Thread { [self] in
            while true {
                let fd = lock.withLock { master }
                let dropped = serve(fd, true) { [self] in lock.withLock { stopped } }
                if dropped { drain(lock.withLock { path }) }
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
        guard fd >= 0, ioctl(fd, setLock, &unlock) == 0, ioctl(fd, getNumber, &number) == 0 else {
            let e = errno
            if fd >= 0 { Glibc.close(fd) }
            throw PeerError("cannot open a pseudo-terminal: \(String(cString: strerror(e)))")
        }
        // Termios set through the master are the slave's: raw, the tty layer translates nothing.
        if !cooked {
            var t = termios()
            tcgetattr(fd, &t)
            cfmakeraw(&t)
            tcsetattr(fd, TCSANOW, &t)
        }
        let node = "/dev/pts/\(number)"
        if let linkPath {
            // Made beside the link and renamed over it: the link is never missing.
            let fresh = linkPath + ".new"
            unlink(fresh)
            guard symlink(node, fresh) == 0, rename(fresh, linkPath) == 0 else {
                let e = errno
                Glibc.close(fd)
                throw PeerError("cannot link \(linkPath) to \(node): \(String(cString: strerror(e)))")
            }
        }
        lock.withLock {
            master = fd
            path = node
        }
    }

    public func close() { lock.withLock { stopped = true } }

    /// Closing the master hangs the slave up, and a hangup discards input the app has not
    /// read yet: before a drop, wait (at most a second) until the last bytes written are read,
    /// so "answer, then drop" reaches the app as it does over TCP. When the slave cannot be
    /// opened to look (an app's TIOCEXCL, without privileges), a reader already waiting gets
    /// a short grace instead.
    private func drain(_ node: String) {
        let slave = open(node, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard slave >= 0 else {
            usleep(100_000)
            return
        }
        defer { Glibc.close(slave) }
        for _ in 0..<500 {
            // poll first: it moves bytes still on their way into the slave's buffer, which
            // FIONREAD alone would miss.
            var p = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 0)
            var unread: Int32 = 0
            guard ioctl(slave, UInt(FIONREAD), &unread) == 0, unread > 0 else { return }
            usleep(2000)
        }
    }
}
