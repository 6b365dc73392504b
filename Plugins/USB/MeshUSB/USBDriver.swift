import MeshDriverABI
import MeshDriverKit

/// `usb://VID:PID[?serial=...&bus=..&port=..&baud=115200&dtr=on|off&rts=on|off&latency=1]`:
/// a radio behind a USB serial chip (FTDI, CP210x, CH34x) or native CDC-ACM, set up through
/// libusb and streamed through usbfs URBs, without the kernel's usb-serial drivers. The link is
/// a byte stream; framing stays in the host.
public enum USBDriver: MeshDriver {
    public static let name = "usb"
    public static let version = "1.0.0"
    public static let schemes = ["usb"]
    public static let linkKind = MESHPORT_LINK_STREAM
    public static let maxFrameSize = 176
    public static let flags = [MESHPORT_LINK_SERIAL_CONSOLE]

    public static func discover() throws(DriverFailure) -> [DiscoveredRadio] {
        do {
            let context = try USBContext()
            return try context.devices().compactMap(radio)
        } catch {
            throw failure(error)
        }
    }

    /// A supported device as discovery lists it; strings need access to the device.
    private static func radio(_ entry: USBDeviceEntry) -> DiscoveredRadio? {
        guard let chip = entry.chip() else { return nil }
        var strings: (manufacturer: String?, product: String?, serial: String?) = (nil, nil, nil)
        var access = ""
        do {
            let handle = try USBDeviceHandle(entry)
            strings = (handle.string(entry.stringIndexes.manufacturer), handle.string(entry.stringIndexes.product), handle.serial)
            handle.close()
        } catch {
            access = error.kind == .permissionDenied ? "; no access (install the udev rule, Docs/usb.md)" : "; cannot open: \(error.message)"
        }
        var url = "usb://\(entry.id)"
        if let serial = strings.serial, !serial.isEmpty {
            url += "?serial=\(USBOptions.queryValue(serial))"
        } else {
            url += "?bus=\(entry.bus)&port=\(entry.portText)"
        }
        let label = strings.product ?? KnownDevice.find(vendorID: entry.vendorID, productID: entry.productID)?.label ?? chip.name
        var details = "\(entry.id) \(chip.name)"
        if let m = strings.manufacturer { details += ", \(m)" }
        if let s = strings.serial { details += ", serial \(s)" }
        details += ", \(entry.location)\(access)"
        return DiscoveredRadio(url: url, label: label, details: details)
    }

    public static func validate(url text: String) throws(DriverFailure) -> TransportURL {
        let url = try TransportURL.checked(text) { _ in }
        _ = try usbOptions(url)
        return url
    }

    /// What the URL asks for; a bad part is INVALID_URL.
    private static func usbOptions(_ url: TransportURL) throws(DriverFailure) -> USBOptions {
        do throws(USBError) {
            return try USBOptions(device: url.authority, query: url.query)
        } catch {
            throw failure(error)
        }
    }

    public static func open(url text: String, events: LinkEvents) throws(DriverFailure) -> MeshLink {
        let options = try usbOptions(try validate(url: text))
        do throws(USBError) {
            let context = try USBContext()
            let (entry, opened) = try USBSelection.select(try context.devices(), options)
            guard let chip = entry.chip() else {
                opened?.close()
                throw USBError(.unsupported, "\(entry.id) at \(entry.location) is not a USB serial chip Meshport drives (FTDI, CP210x, CH34x or CDC-ACM)")
            }
            let handle: USBDeviceHandle
            if let opened { handle = opened } else { handle = try USBDeviceHandle(entry) }
            let describe = "\(chip.name) \(entry.id) at \(entry.location)"
            do {
                let plan = try chip.interfaces(in: entry.configuration)
                try handle.claim(plan.claim)
                try chip.open(handle, plan: plan, line: options.line)
                return try USBLink(context: context, handle: handle, chip: chip, plan: plan, events: events, describe: describe)
            } catch {
                handle.close()
                throw USBError(error.kind, "\(describe): \(error.message)", fix: error.fix)
            }
        } catch {
            throw failure(error)
        }
    }

    /// Typed USB errors as ABI error kinds, their fix kept apart.
    static func failure(_ error: USBError) -> DriverFailure {
        let kind: meshport_error_kind
        switch error.kind {
        case .invalidURL: kind = MESHPORT_ERR_INVALID_URL
        case .notFound, .unsupported: kind = MESHPORT_ERR_NOT_FOUND
        case .ambiguous: kind = MESHPORT_ERR_INVALID_URL
        case .permissionDenied: kind = MESHPORT_ERR_PERMISSION_DENIED
        case .busy: kind = MESHPORT_ERR_BUSY
        case .unplugged: kind = MESHPORT_ERR_LINK_LOST
        case .timeout: kind = MESHPORT_ERR_TIMEOUT
        case .stalled, .other: kind = MESHPORT_ERR_OTHER
        }
        return DriverFailure(kind, error.message, fix: error.fix)
    }
}
