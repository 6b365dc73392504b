import CLibUSB

/// An opened device: strings, control transfers (the chips' `ControlChannel`), and the
/// interfaces it claimed, each handed back to its kernel driver on `close`.
final class USBDeviceHandle: ControlChannel, @unchecked Sendable {
    let raw: OpaquePointer
    let entry: USBDeviceEntry
    private var claimed: [Int] = []
    private var detached: [Int] = []
    static let controlTimeoutMs: UInt32 = 1000

    init(_ entry: USBDeviceEntry) throws(USBError) {
        var handle: OpaquePointer?
        let rc = libusb_open(entry.device, &handle)
        guard rc == 0, let handle else { throw usbFailure(rc, "opening \(entry.id) at \(entry.location)") }
        raw = handle
        self.entry = entry
    }

    func string(_ index: UInt8) -> String? {
        guard index != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = libusb_get_string_descriptor_ascii(raw, index, &buffer, Int32(buffer.count))
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(n)), as: UTF8.self)
    }

    var serial: String? { string(entry.stringIndexes.serial) }

    /// Takes each interface from its kernel driver (ftdi_sio, cdc_acm...) and claims it.
    func claim(_ interfaces: [Int]) throws(USBError) {
        for number in interfaces {
            // A device plugged in a moment ago may still be getting its kernel driver: one that
            // binds between detach and claim makes the claim BUSY, and is detached again.
            var attempts = 0
            while true {
                attempts += 1
                try detachKernelDriver(number)
                let rc = libusb_claim_interface(raw, Int32(number))
                if rc == 0 { break }
                guard rc == LIBUSB_ERROR_BUSY.rawValue, attempts < 3, libusb_kernel_driver_active(raw, Int32(number)) == 1 else {
                    throw usbFailure(rc, "claiming interface \(number) of \(entry.id)")
                }
            }
            claimed.append(number)
        }
    }

    private func detachKernelDriver(_ number: Int) throws(USBError) {
        guard libusb_kernel_driver_active(raw, Int32(number)) == 1 else { return }
        let rc = libusb_detach_kernel_driver(raw, Int32(number))
        // Detaching cdc_acm from the communications interface frees the data interface too.
        if rc != 0 && rc != LIBUSB_ERROR_NOT_FOUND.rawValue { throw usbFailure(rc, "detaching the kernel driver from interface \(number) of \(entry.id)") }
        if !detached.contains(number) { detached.append(number) }
    }

    func control(_ setup: ControlSetup) throws(USBError) -> [UInt8] {
        var buffer = setup.isIn ? [UInt8](repeating: 0, count: setup.inLength) : setup.data
        let count = UInt16(buffer.count)
        let rc = buffer.withUnsafeMutableBufferPointer { b in
            libusb_control_transfer(raw, setup.requestType, setup.request, setup.value, setup.index, b.baseAddress, count, Self.controlTimeoutMs)
        }
        guard rc >= 0 else { throw usbFailure(rc, "control request \(setup) to \(entry.id)") }
        return setup.isIn ? Array(buffer.prefix(Int(rc))) : []
    }

    /// Releases what was claimed and re-attaches the kernel drivers it took. Errors are not
    /// reported: after an unplug there is nothing left to release, and that is no failure.
    func close() {
        for number in claimed.reversed() { _ = libusb_release_interface(raw, Int32(number)) }
        for number in detached { _ = libusb_attach_kernel_driver(raw, Int32(number)) }
        claimed = []
        detached = []
        libusb_close(raw)
    }
}
