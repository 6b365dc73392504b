import CBluetooth
#if canImport(Glibc)
import Glibc
#endif

/// The BlueZ HCI user channel: the kernel hands a whole adapter to this process, which then
/// is its only host. One packet per read and write, each with its H4 indicator.
final class HCIUserChannel: FDTransport, @unchecked Sendable {
    static func open(adapter: UInt16, spec: String) throws(HCITransportError) -> HCIUserChannel {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_HCI)
        guard fd >= 0 else {
            let err = errno
            if err == EAFNOSUPPORT || err == EPROTONOSUPPORT {
                throw HCITransportError(.unsupported, "hci=\(spec): this kernel has no Bluetooth sockets (AF_BLUETOOTH)", fix: "load the bluetooth module (sudo modprobe bluetooth) or use an H4 controller with hci=uart:/dev/ttyUSB0")
            }
            throw HCITransportError(.other, "hci=\(spec): cannot create an HCI socket: \(String(cString: strerror(err)))")
        }
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = adapter
        address.hci_channel = UInt16(HCI_CHANNEL_USER)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
        guard rc == 0 else {
            let err = errno
            Glibc.close(fd)
            throw failure(err, adapter: adapter, spec: spec)
        }
        return try HCIUserChannel(fd: fd, spec: spec, isSocket: true)
    }

    /// The bind errors users meet, each with what to run.
    static func failure(_ err: Int32, adapter: UInt16, spec: String) -> HCITransportError {
        let name = "hci\(adapter)"
        switch err {
        case EBUSY, EALREADY:
            return HCITransportError(.busy, "hci=\(spec): \(name) is up and in use by BlueZ", fix: "sudo btmgmt --index \(adapter) power off (or sudo hciconfig \(name) down), then try again")
        case EPERM, EACCES:
            return HCITransportError(.permissionDenied, "hci=\(spec): taking \(name) needs CAP_NET_ADMIN", fix: "sudo setcap cap_net_admin+ep $(command -v meshport) (or run as root)")
        case ENODEV:
            return HCITransportError(.notFound, "hci=\(spec): there is no adapter \(name)", fix: "list adapters with btmgmt info or ls /sys/class/bluetooth")
        case ERFKILL:
            return HCITransportError(.busy, "hci=\(spec): \(name) is blocked by rfkill", fix: "sudo rfkill unblock bluetooth")
        default:
            return HCITransportError(.other, "hci=\(spec): cannot take \(name): \(String(cString: strerror(err)))")
        }
    }
}
