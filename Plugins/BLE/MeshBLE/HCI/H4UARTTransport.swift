#if canImport(Glibc)
import Glibc
#endif

/// H4 over a serial port: a controller running HCI firmware on a UART (Zephyr hci_uart,
/// nRF52 dongles). Raw 8N1 with RTS/CTS flow control, which H4 requires.
final class H4UARTTransport: FDHCITransport, @unchecked Sendable {
    static func open(path: String, baud: Int, spec: String) throws(HCITransportError) -> H4UARTTransport {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            switch err {
            case ENOENT: throw HCITransportError(.notFound, "hci=\(spec): \(path) does not exist", fix: "check the controller is plugged in: ls /dev/ttyUSB* /dev/ttyACM*")
            case EACCES, EPERM: throw HCITransportError(.permissionDenied, "hci=\(spec): \(path): permission denied", fix: "sudo usermod -aG dialout $USER, then log in again")
            case EBUSY: throw HCITransportError(.busy, "hci=\(spec): \(path) is in use", fix: "stop the program holding it (fuser \(path))")
            default: throw HCITransportError(.other, "hci=\(spec): cannot open \(path): \(String(cString: strerror(err)))")
            }
        }
        guard let speed = speed(baud) else {
            Glibc.close(fd)
            throw HCITransportError(.invalidSpec, "hci=\(spec): \(baud) is not a standard baud rate (115200, 460800, 1000000, ...)")
        }
        var tio = termios()
        guard tcgetattr(fd, &tio) == 0 else {
            let text = String(cString: strerror(errno))
            Glibc.close(fd)
            throw HCITransportError(.unsupported, "hci=\(spec): \(path) is not a serial port: \(text)")
        }
        cfmakeraw(&tio)
        tio.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD) | tcflag_t(CRTSCTS)
        cfsetispeed(&tio, speed)
        cfsetospeed(&tio, speed)
        guard tcsetattr(fd, TCSANOW, &tio) == 0 else {
            let text = String(cString: strerror(errno))
            Glibc.close(fd)
            throw HCITransportError(.other, "hci=\(spec): cannot configure \(path): \(text)")
        }
        tcflush(fd, TCIOFLUSH)
        return try H4UARTTransport(fd: fd, spec: spec, isSocket: false)
    }

    private static func speed(_ baud: Int) -> speed_t? {
        let table: [Int: Int32] = [
            9600: B9600, 19200: B19200, 38400: B38400, 57600: B57600, 115200: B115200, 230400: B230400,
            460800: B460800, 921600: B921600, 1_000_000: B1000000, 2_000_000: B2000000, 3_000_000: B3000000,
        ]
        return table[baud].map { speed_t($0) }
    }
}
