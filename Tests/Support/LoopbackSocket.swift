import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket connected to 127.0.0.1:`port`, for tests that speak raw bytes to a
/// peer. `configure` runs before connecting (buffer sizes, time limits). The caller closes it.
public func connectLoopback(port: Int, configure: (Int32) -> Void = { _ in }) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ProcessFailure("socket: errno \(errno)") }
    configure(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let e = errno
        close(fd)
        throw ProcessFailure("connect to 127.0.0.1:\(port): errno \(e)")
    }
    return fd
}

/// SO_RCVTIMEO for `connectLoopback`'s `configure`.
public func receiveTimeout(_ seconds: Int) -> (Int32) -> Void {
    { fd in
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}

/// A free TCP port on 127.0.0.1 (bound to port 0, read back, released).
public func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ProcessFailure("socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw ProcessFailure("binding a free loopback port: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}
