#if canImport(Glibc)
import Glibc
#endif

/// H4 over TCP: an emulated controller (Bumble, QEMU, Zephyr's native_sim) listening on a port.
final class H4TCPTransport: FDHCITransport, @unchecked Sendable {
    static func connect(host: String, port: UInt16, spec: String) throws(HCITransportError) -> H4TCPTransport {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw HCITransportError(.notFound, "hci=\(spec): cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var failure = HCITransportError(.notFound, "hci=\(spec): no address for \(host)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let a = entry {
            entry = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            // A local emulator answers at once; a blocking connect is bounded by the kernel.
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                return try H4TCPTransport(fd: fd, spec: spec, isSocket: true)
            }
            let err = errno
            Glibc.close(fd)
            failure = err == ECONNREFUSED
                ? HCITransportError(.notFound, "hci=\(spec): nothing listens on \(host):\(port)", fix: "start the HCI emulator first (Tools/BLE/world.py for tests)")
                : HCITransportError(.other, "hci=\(spec): cannot connect to \(host):\(port): \(String(cString: strerror(err)))")
        }
        throw failure
    }
}
