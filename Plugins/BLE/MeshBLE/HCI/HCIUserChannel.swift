import CBluetooth
#if canImport(Glibc)
import Glibc
#endif

/// The BlueZ HCI user channel: the kernel hands a whole adapter to this process, which then
/// is its only host. One packet per read and write, each with its H4 indicator.
final class HCIUserChannel: FDHCITransport, @unchecked Sendable {
    static func open(adapter: UInt16, spec: String) throws(HCITransportError) -> HCIUserChannel {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), BTPROTO_HCI)
        guard fd >= 0 else {
            let err = errno
            if err == EAFNOSUPPORT || err == EPROTONOSUPPORT {
                throw HCITransportError(.unsupported, "hci=\(spec): this kernel has no Bluetooth sockets (AF_BLUETOOTH)", fix: "load the bluetooth module (sudo modprobe bluetooth) or use an H4 controller with hci=uart:/dev/ttyUSB0")
            }
            throw HCITransportError(.other, "hci=\(spec): cannot create an HCI socket: \(String(cString: strerror(err)))")
        }
        guard bindHCI(fd, device: adapter, channel: HCI_CHANNEL_USER) == 0 else {
            let err = errno
            Glibc.close(fd)
            // Busy: the kernel refuses an adapter that is up, whether BlueZ brought it up or
            // another program holds it through this channel; only the management interface
            // tells them apart.
            throw failure(err, adapter: adapter, spec: spec, managed: err == EBUSY ? managementLists(adapter) : nil)
        }
        return try HCIUserChannel(fd: fd, spec: spec, isSocket: true)
    }

    /// The bind errors users meet, each with what to run. `managed`: whether the kernel's
    /// management interface (BlueZ's view of the adapters) lists the adapter, when known.
    static func failure(_ err: Int32, adapter: UInt16, spec: String, managed: Bool? = nil) -> HCITransportError {
        let name = "hci\(adapter)"
        switch err {
        case EBUSY where managed == false, EUSERS:
            // Busy and unlisted: the adapter's user channel is open (the kernel admits one).
            return HCITransportError(.busy, "hci=\(spec): \(name) is held by another program through the HCI user channel (another meshport?)", fix: "stop that program, or use another adapter (?hci=hci1)")
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

    /// Whether the kernel's management interface (what bluetoothd uses) lists `adapter`. It lists
    /// every adapter the kernel has set up except those held through the user channel. Asked
    /// with Read Index List on the control channel, which needs no capability; nil when it
    /// cannot be asked or does not answer within a second.
    static func managementLists(_ adapter: UInt16) -> Bool? {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        guard bindHCI(fd, device: UInt16(HCI_DEV_NONE), channel: HCI_CHANNEL_CONTROL) == 0 else { return nil }
        // mgmt header: opcode, controller index (none), parameter length; all u16 LE.
        let readIndexList: UInt16 = 0x0003
        var command: [UInt8] = []
        for field in [readIndexList, UInt16(HCI_DEV_NONE), 0] { command.appendLE(field) }
        guard Glibc.send(fd, command, command.count, Int32(MSG_NOSIGNAL)) == command.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        // Other events may come first; the answer is Command Complete (0x0001) or Command Status
        // (0x0002) naming the opcode.
        for _ in 0..<8 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 1000) == 1 else { return nil }
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            var reader = ByteReader(buffer[0..<n], what: "mgmt Read Index List")
            do {
                let event = try reader.u16()
                _ = try reader.take(4)   // index, length
                guard event == 0x0001 || event == 0x0002, try reader.u16() == readIndexList else { continue }
                guard event == 0x0001, try reader.u8() == 0 else { return nil }
                let count = Int(try reader.u16())
                var indexes: [UInt16] = []
                for _ in 0..<count { indexes.append(try reader.u16()) }
                return indexes.contains(adapter)
            } catch {
                return nil
            }
        }
        return nil
    }

    private static func bindHCI(_ fd: Int32, device: UInt16, channel: Int32) -> Int32 {
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = device
        address.hci_channel = UInt16(channel)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
    }
}
