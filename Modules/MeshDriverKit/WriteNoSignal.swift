#if canImport(Glibc)
import Glibc
#endif

/// True when `fd` is a socket. Asked once per descriptor, so each write is one system call.
public func isSocket(_ fd: Int32) -> Bool {
    var st = stat()
    return fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
}

/// `write` that reports a peer's closed socket as EPIPE instead of raising SIGPIPE, which
/// would kill the whole process (a client, a test run, `meshport sim`). Sockets get
/// `send(MSG_NOSIGNAL)`; ttys and pipes, which are not sockets, a plain `write`.
public func writeNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, socket: Bool) -> Int {
    socket ? send(fd, bytes, count, Int32(MSG_NOSIGNAL)) : write(fd, bytes, count)
}
