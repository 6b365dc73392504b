import MeshportServer
#if canImport(Glibc)
import Glibc
#endif

/// The addresses `meshport serve` would listen on (HTTP, companion re-exports): each must be
/// free to bind.
enum PortChecks {
    static func run(http: String, companions: [String]) -> [DoctorCheck] {
        [check("http", http)] + companions.map { check("companion", $0) }
    }

    static func check(_ what: String, _ text: String) -> DoctorCheck {
        let name = "\(what) \(text)"
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: text)
        } catch {
            return .problem(name, "\(error)", fix: "give --\(what) as HOST:PORT, e.g. 127.0.0.1:8080")
        }
        guard address.port != 0 else { return .ok(name, "port 0: serve takes a free one") }
        let err = bindError(address)
        switch err {
        case 0:
            return .ok(name, "free")
        case EADDRINUSE:
            return .problem(name, "port \(address.port) on \(address.host) is in use (by a running meshport serve?)",
                            fix: "sudo ss -ltnp 'sport = :\(address.port)' names the program; stop it, or give serve another --\(what)")
        case EACCES:
            return .problem(name, "port \(address.port) is below 1024, which needs CAP_NET_BIND_SERVICE",
                            fix: "give serve --\(what) with a port of 1024 or above")
        case EADDRNOTAVAIL:
            return .problem(name, "no network interface of this machine has the address \(address.host)",
                            fix: "give serve --\(what) with an address of this machine (ip -brief address lists them)")
        default:
            return .problem(name, "cannot listen on \(text): \(String(cString: strerror(err)))", fix: "give serve another --\(what)")
        }
    }

    /// 0 when a listening socket could bind the address now (as serve's: SO_REUSEADDR), else errno.
    private static func bindError(_ address: ListenAddress) -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard resolved == 0, let first = found else { return EADDRNOTAVAIL }
        defer { freeaddrinfo(found) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var on: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else { return errno }
        return bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 ? 0 : errno
    }
}
