import MeshDriverABI
import MeshDriverKit
#if canImport(Glibc)
import Glibc
#endif

/// `tcp://host[:5000][?timeout=SECONDS]`: WiFi and Ethernet companions.
/// TCP_NODELAY so each frame leaves at once in its own segment (firmware before 1.12 did
/// not parse frame headers); keep-alive and a user timeout so a radio that dropped us
/// (it replaces its client when a new one connects) is noticed.
enum TCPDriver: MeshDriver {
    static let name = "tcp"
    static let version = "1.0.0"
    static let schemes = ["tcp"]
    static let linkKind = MESHPORT_LINK_STREAM
    static let maxFrameSize = 176
    static let defaultPort = 5000

    static func discover() throws(DriverFailure) -> [DiscoveredRadio] { [] }   // no discovery protocol on TCP

    static func validate(url text: String) throws(DriverFailure) -> TransportURL {
        try TransportURL.checked(text) { url throws(TransportURLError) in
            let (host, _) = try url.hostAndPort()
            guard !host.isEmpty else { throw url.invalid(url.text, "tcp needs a host: tcp://HOST[:5000]") }
            try url.allowParameters(["timeout"])
            if let t = url.parameter("timeout"), (Double(t) ?? 0) <= 0 {
                throw url.invalid(t, "timeout is a number of seconds")
            }
        }
    }

    static func open(url text: String, events: LinkEvents) throws(DriverFailure) -> MeshLink {
        let url = try validate(url: text)
        let (host, port) = try address(url)
        let timeoutMs = Int32((Double(url.parameter("timeout") ?? "5") ?? 5) * 1000)
        let fd = try connect(host: host, port: port, timeoutMs: timeoutMs)
        configure(fd)
        return try FDLink(fd: fd, events: events, describe: "tcp://\(host):\(port)")
    }

    /// Host and port (5000 unless given) of a URL `validate` accepted.
    private static func address(_ url: TransportURL) throws(DriverFailure) -> (String, Int) {
        do throws(TransportURLError) {
            let (host, port) = try url.hostAndPort()
            return (host, port ?? defaultPort)
        } catch {
            throw DriverFailure(error)
        }
    }

    private static func connect(host: String, port: Int, timeoutMs: Int32) throws(DriverFailure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw DriverFailure(MESHPORT_ERR_NOT_FOUND, "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var last = DriverFailure(MESHPORT_ERR_NOT_FOUND, "no address for \(host)")
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            if fd >= 0 {
                if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return fd }
                if errno == EINPROGRESS {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    let r = poll(&p, 1, timeoutMs)
                    if r == 1 {
                        var err: Int32 = 0
                        var len = socklen_t(MemoryLayout<Int32>.size)
                        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
                        if err == 0 { return fd }
                        last = failure(err, host: host, port: port)
                    } else {
                        last = DriverFailure(MESHPORT_ERR_TIMEOUT, "no TCP connection to \(host):\(port) within \(timeoutMs) ms: is the radio on this network and running WiFi/Ethernet companion firmware?")
                    }
                } else {
                    last = failure(errno, host: host, port: port)
                }
                Glibc.close(fd)
            }
            ai = a.pointee.ai_next
        }
        throw last
    }

    private static func failure(_ err: Int32, host: String, port: Int) -> DriverFailure {
        let text = String(cString: strerror(err))
        switch err {
        case ECONNREFUSED: return DriverFailure(MESHPORT_ERR_REFUSED, "\(host):\(port) refused the connection (\(text)): nothing listens there; companions listen on port 5000")
        case ETIMEDOUT: return DriverFailure(MESHPORT_ERR_TIMEOUT, "connecting to \(host):\(port) timed out")
        case EHOSTUNREACH, ENETUNREACH: return DriverFailure(MESHPORT_ERR_NOT_FOUND, "\(host) is unreachable: \(text)")
        case EACCES, EPERM: return DriverFailure(MESHPORT_ERR_PERMISSION_DENIED, text, fix: "check firewall rules for \(host):\(port)")
        default: return DriverFailure(MESHPORT_ERR_OTHER, "connecting to \(host):\(port): \(text)")
        }
    }

    private static func configure(_ fd: Int32) {
        func set(_ level: Int32, _ name: Int32, _ value: Int32) {
            var v = value
            setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
        }
        set(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        set(SOL_SOCKET, SO_KEEPALIVE, 1)
        set(Int32(IPPROTO_TCP), TCP_KEEPIDLE, 10)
        set(Int32(IPPROTO_TCP), TCP_KEEPINTVL, 5)
        set(Int32(IPPROTO_TCP), TCP_KEEPCNT, 3)
        // Unacknowledged data for 15 s means the radio is gone.
        set(Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, 15_000)
    }
}

@_cdecl("meshport_driver_entry")
public func meshportDriverEntry() -> UnsafePointer<meshport_driver_descriptor> {
    DriverExport.descriptor(for: TCPDriver.self)
}
