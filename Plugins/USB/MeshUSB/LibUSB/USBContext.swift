import CLibUSB
import Glibc

/// One libusb context. Each link has its own, so closing a link ends everything it started
/// (reaper thread, descriptors) and links never share state.
final class USBContext: @unchecked Sendable {
    let raw: OpaquePointer

    init() throws(USBError) {
        var ctx: OpaquePointer?
        let rc = libusb_init(&ctx)
        guard rc == 0, let ctx else { throw usbFailure(rc, "libusb_init") }
        raw = ctx
    }

    deinit { libusb_exit(raw) }

    /// The usbfs descriptor of the one device this context has open (each link has its own
    /// context): libusb lists it among the descriptors to poll, as the only one waited on for
    /// output (completed URBs). Nil unless exactly one such descriptor is listed.
    func deviceDescriptor() -> Int32? {
        guard let fds = libusb_get_pollfds(raw) else { return nil }
        defer { libusb_free_pollfds(fds) }
        var found: [Int32] = []
        var i = 0
        while let p = fds[i] {
            if p.pointee.events & Int16(POLLOUT) != 0 { found.append(p.pointee.fd) }
            i += 1
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Every device on every bus, described; `body` gets the libusb device to open.
    func devices() throws(USBError) -> [USBDeviceEntry] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(raw, &list)
        guard count >= 0, let list else { throw usbFailure(Int32(count), "listing USB devices") }
        var entries: [USBDeviceEntry] = []
        for i in 0..<count {
            guard let device = list[i] else { continue }
            if let entry = USBDeviceEntry(device, context: self) { entries.append(entry) }
        }
        // The entries keep their own references.
        libusb_free_device_list(list, 1)
        return entries
    }
}

/// A device found on a bus: its identity and configuration as values, and a reference to it.
final class USBDeviceEntry: @unchecked Sendable {
    let device: OpaquePointer
    /// Devices must be released before their context exits.
    private let context: USBContext
    let vendorID: UInt16
    let productID: UInt16
    let bcdDevice: UInt16
    let bus: Int
    let address: Int
    let portPath: [Int]
    let configuration: USBConfiguration
    let stringIndexes: (manufacturer: UInt8, product: UInt8, serial: UInt8)

    init?(_ device: OpaquePointer, context: USBContext) {
        var d = libusb_device_descriptor()
        guard libusb_get_device_descriptor(device, &d) == 0 else { return nil }
        self.context = context
        self.device = libusb_ref_device(device)
        vendorID = d.idVendor
        productID = d.idProduct
        bcdDevice = d.bcdDevice
        bus = Int(libusb_get_bus_number(device))
        address = Int(libusb_get_device_address(device))
        var ports = [UInt8](repeating: 0, count: 7)
        let n = libusb_get_port_numbers(device, &ports, Int32(ports.count))
        portPath = n > 0 ? ports.prefix(Int(n)).map(Int.init) : []
        configuration = Self.configuration(device)
        stringIndexes = (d.iManufacturer, d.iProduct, d.iSerialNumber)
    }

    deinit { libusb_unref_device(device) }

    var id: String { usbID(vendorID, productID) }
    var portText: String { portPath.map(String.init).joined(separator: ".") }
    /// "bus 1 port 1.4 (/dev/bus/usb/001/004)"
    var location: String {
        let node = "/dev/bus/usb/" + [bus, address].map { String(format3($0)) }.joined(separator: "/")
        return "bus \(bus) port \(portText.isEmpty ? "-" : portText) (\(node))"
    }

    private func format3(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 3 - s.count)) + s
    }

    /// The active configuration copied out; empty when the device is unconfigured.
    private static func configuration(_ device: OpaquePointer) -> USBConfiguration {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        guard libusb_get_active_config_descriptor(device, &config) == 0, let config else { return USBConfiguration(interfaces: []) }
        defer { libusb_free_config_descriptor(config) }
        var interfaces: [USBInterface] = []
        for i in 0..<Int(config.pointee.bNumInterfaces) {
            let interface = config.pointee.interface[i]
            guard interface.num_altsetting > 0 else { continue }
            let alt = interface.altsetting[0]
            let endpoints = (0..<Int(alt.bNumEndpoints)).map { e in
                let ep = alt.endpoint[e]
                return USBEndpoint(address: ep.bEndpointAddress, attributes: ep.bmAttributes, maxPacketSize: Int(ep.wMaxPacketSize & 0x7FF))
            }
            interfaces.append(USBInterface(number: Int(alt.bInterfaceNumber), interfaceClass: alt.bInterfaceClass,
                                           subclass: alt.bInterfaceSubClass, endpoints: endpoints))
        }
        return USBConfiguration(interfaces: interfaces)
    }

    /// The chip family: the table first, then any CDC-ACM communications interface.
    var family: KnownDevice.Family? {
        if let known = KnownDevice.find(vendorID: vendorID, productID: productID) { return known.family }
        let acm = configuration.interfaces.contains { $0.interfaceClass == USBInterface.communicationsClass && $0.subclass == USBInterface.abstractControlModel }
        return acm ? .cdcACM : nil
    }

    func chip() -> (any SerialChip)? {
        switch family {
        case .ftdi: FTDI(bcdDevice: bcdDevice, interfaceCount: configuration.interfaces.count)
        case .cp210x: CP210x()
        case .ch34x: CH34x()
        case .cdcACM: CDCACM()
        case nil: nil
        }
    }
}
