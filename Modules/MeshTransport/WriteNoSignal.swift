#if canImport(Glibc)
import Glibc
#endif

/// `write` that reports a peer's closed socket as EPIPE instead of raising SIGPIPE, which
/// would kill the whole process (a client, a test run, `meshport sim`). Sockets get
/// `send(MSG_NOSIGNAL)`; ttys and pipes, which are not sockets, a plain `write`.
public func writeNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    let n = send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    if n < 0 && errno == ENOTSOCK { return write(fd, bytes, count) }
    return n
}
