import MeshDriverABI
import MeshDriverKit
#if canImport(Glibc)
import Glibc
#endif

/// `serial:///dev/ttyACM0[?baud=115200&dtr=on|off&rts=on|off]` through the kernel's tty:
/// raw 8N1, no flow control, exclusive open. DTR and RTS are left as the kernel set them
/// unless asked (many ESP32 boards reset when they toggle), and HUPCL is cleared so closing
/// does not drop DTR either.
public enum SerialDriver: MeshDriver {
    public static let name = "serial"
    public static let version = "1.0.0"
    public static let schemes = ["serial"]
    public static let linkKind = MESHPORT_LINK_STREAM
    public static let maxFrameSize = 176
    public static let flags = [MESHPORT_LINK_SERIAL_CONSOLE]

    public static func discover() throws(DriverFailure) -> [DiscoveredRadio] {
        // MESHPORT_SERIAL_ROOT: read /dev and /sys under another root (a copied tree).
        SerialDiscovery.radios(root: getenv("MESHPORT_SERIAL_ROOT").map { String(cString: $0) } ?? "")
    }

    public static func validate(url text: String) throws(DriverFailure) -> TransportURL {
        try TransportURL.checked(text) { url throws(TransportURLError) in
            guard url.path.hasPrefix("/") else { throw url.invalid(url.text, "serial needs a device path: serial:///dev/ttyACM0") }
            guard url.authority.isEmpty else { throw url.invalid(url.authority, "serial URLs have no host; use three slashes: serial:///dev/...") }
            try url.allowParameters(["baud", "dtr", "rts"])
            if let baud = url.parameter("baud") {
                guard let b = Int(baud), b > 0 else { throw url.invalid(baud, "baud must be a positive number") }
            }
            for line in ["dtr", "rts"] {
                if let v = url.parameter(line), !["on", "off", "1", "0"].contains(v) {
                    throw url.invalid(v, "\(line) is on or off")
                }
            }
        }
    }

    public static func open(url text: String, events: LinkEvents) throws(DriverFailure) -> MeshLink {
        let url = try validate(url: text)
        let baudValue = Int(url.parameter("baud") ?? "115200") ?? 115_200
        guard let speed = baudConstant(baudValue) else {
            throw DriverFailure(MESHPORT_ERR_INVALID_URL, "baud \(baudValue) is not a standard rate (e.g. 9600, 57600, 115200, 230400, 460800, 921600)")
        }
        let path = url.path
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw openFailure(errno, path) }
        do throws(DriverFailure) {
            try exclusive(fd, path)
            try configure(fd, path: path, speed: speed)
            try setLine(fd, TIOCM_DTR, url.parameter("dtr"), path)
            try setLine(fd, TIOCM_RTS, url.parameter("rts"), path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        return try FDLink(fd: fd, events: events, describe: path)
    }

    private static func openFailure(_ err: Int32, _ path: String) -> DriverFailure {
        let text = String(cString: strerror(err))
        switch err {
        case ENOENT, ENXIO, ENODEV:
            return DriverFailure(MESHPORT_ERR_NOT_FOUND, "\(path): \(text); is the radio plugged in? `meshport scan` lists serial ports")
        case EACCES, EPERM:
            return DriverFailure(MESHPORT_ERR_PERMISSION_DENIED, "\(path): \(text)",
                                 fix: "add yourself to the group that owns it (usually dialout): sudo usermod -aG dialout $USER, then log in again")
        case EBUSY:
            return DriverFailure(MESHPORT_ERR_BUSY, "\(path) is in use by another program (close other serial consoles or clients)")
        default:
            return DriverFailure(MESHPORT_ERR_OTHER, "cannot open \(path): \(text)")
        }
    }

    private static func exclusive(_ fd: Int32, _ path: String) throws(DriverFailure) {
        // Advisory lock first: cooperating programs (and a second Meshport) see it.
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            throw DriverFailure(MESHPORT_ERR_BUSY, "\(path) is locked by another program (flock); close it first")
        }
        // TIOCEXCL: any further open of the tty fails with EBUSY until we close.
        if ioctl(fd, UInt(TIOCEXCL)) != 0 {
            throw DriverFailure(MESHPORT_ERR_OTHER, "TIOCEXCL on \(path) failed: \(errnoText())")
        }
    }

    private static func configure(_ fd: Int32, path: String, speed: speed_t) throws(DriverFailure) {
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else {
            throw DriverFailure(MESHPORT_ERR_OTHER, "\(path) is not a terminal device: \(errnoText())")
        }
        cfmakeraw(&t)
        t.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD) | tcflag_t(CS8)
        t.c_cflag &= ~(tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS) | tcflag_t(HUPCL))
        t.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        // Reads never block (the descriptor is non-blocking); poll waits for data.
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        cfsetispeed(&t, speed)
        cfsetospeed(&t, speed)
        guard tcsetattr(fd, TCSANOW, &t) == 0 else {
            throw DriverFailure(MESHPORT_ERR_OTHER, "cannot configure \(path) (raw 8N1): \(errnoText())")
        }
        // A freshly plugged radio's tty starts cooked, and a radio that talks as soon as the
        // port opens (DTR) is heard before the line above: the line discipline applied erase
        // and kill characters to those bytes, holds them as a line, and echoed them back to
        // the radio. Released now, they would run into the first real frame; drop them, and
        // any echo not yet sent.
        guard tcflush(fd, TCIOFLUSH) == 0 else {
            throw DriverFailure(MESHPORT_ERR_OTHER, "cannot discard what \(path) received before it was configured: \(errnoText())")
        }
    }

    /// Sets DTR or RTS only when the URL asks.
    private static func setLine(_ fd: Int32, _ bit: Int32, _ value: String?, _ path: String) throws(DriverFailure) {
        guard let value else { return }
        var bits = bit
        let request = (value == "on" || value == "1") ? TIOCMBIS : TIOCMBIC
        // A pty has no modem lines; that is not an error worth failing the open for.
        if ioctl(fd, UInt(request), &bits) != 0 && errno != ENOTTY && errno != EINVAL {
            throw DriverFailure(MESHPORT_ERR_OTHER, "cannot set modem line on \(path): \(errnoText())")
        }
    }

    private static func baudConstant(_ baud: Int) -> speed_t? {
        let table: [Int: Int32] = [
            1200: B1200, 2400: B2400, 4800: B4800, 9600: B9600, 19200: B19200, 38400: B38400,
            57600: B57600, 115_200: B115200, 230_400: B230400, 460_800: B460800, 921_600: B921600,
        ]
        return table[baud].map { speed_t($0) }
    }
}
