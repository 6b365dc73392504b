import MeshDriverABI
import MeshDriverKit
#if canImport(Glibc)
import Glibc
#endif

/// `unix:///PATH`: a radio behind a Unix-domain stream socket, for instance `meshport sim
/// --stdio` behind `socat UNIX-LISTEN:PATH,fork EXEC:'meshport sim --stdio'`. A template:
/// rename it, replace `connect` by how your link is reached, keep the rest. The kit's FDLink
/// sends, receives on a thread of its own and closes, following the ABI's threading rules.
enum UnixDriver: MeshDriver {
    static let name = "unix"
    static let version = "0.1.0"
    static let schemes = ["unix"]
    /// A byte stream: Meshport frames and unframes, the driver only moves bytes.
    static let linkKind = MESHPORT_LINK_STREAM
    static let maxFrameSize = 176

    /// The radios reachable now, for `meshport scan`; sockets are named by hand, so none.
    static func discover() throws(DriverFailure) -> [DiscoveredRadio] { [] }

    static func open(url: String, events: LinkEvents) throws(DriverFailure) -> MeshLink {
        guard url.hasPrefix("unix:///") else {
            throw DriverFailure(MESHPORT_ERR_INVALID_URL, "\"\(url)\" is not unix:///PATH (an absolute path to a socket)")
        }
        let fd = try connect(to: String(url.dropFirst("unix://".count)))
        return try FDLink(fd: fd, events: events, describe: url)
    }

    /// A connected, non-blocking socket (FDLink polls it).
    private static func connect(to path: String) throws(DriverFailure) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw DriverFailure(MESHPORT_ERR_INVALID_URL, "socket path \(path) is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DriverFailure(MESHPORT_ERR_OTHER, "cannot make a socket: \(errnoText())") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0, fcntl(fd, F_SETFL, O_NONBLOCK) == 0 else {
            let failure = switch errno {
            case ENOENT, ECONNREFUSED: DriverFailure(MESHPORT_ERR_NOT_FOUND, "nothing listens on \(path): \(errnoText())")
            case EACCES, EPERM: DriverFailure(MESHPORT_ERR_PERMISSION_DENIED, "\(path): \(errnoText()) | ask its owner for access (chmod or group)")
            default: DriverFailure(MESHPORT_ERR_OTHER, "cannot connect to \(path): \(errnoText())")
            }
            close(fd)
            throw failure
        }
        return fd
    }
}

/// The one symbol Meshport looks up in the library.
@_cdecl("meshport_driver_entry")
public func meshportDriverEntry() -> UnsafePointer<meshport_driver_descriptor> {
    DriverExport.descriptor(for: UnixDriver.self)
}
