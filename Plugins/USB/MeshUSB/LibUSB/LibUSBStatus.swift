import CLibUSB

/// libusb's negative return codes as typed errors; `what` names the step and the device.
func usbFailure(_ code: Int32, _ what: String) -> USBError {
    let name = String(cString: libusb_error_name(code))
    switch code {
    case LIBUSB_ERROR_ACCESS.rawValue:
        return USBError(.permissionDenied, "\(what): no permission (\(name))", fix: USBFix.udevRule)
    case LIBUSB_ERROR_NO_DEVICE.rawValue:
        return USBError(.unplugged, "\(what): the device was unplugged (\(name))", fix: USBFix.replug)
    case LIBUSB_ERROR_NOT_FOUND.rawValue:
        return USBError(.notFound, "\(what): not found (\(name))")
    case LIBUSB_ERROR_BUSY.rawValue:
        return USBError(.busy, "\(what): in use by another program (\(name))", fix: "close other programs using the radio (serial consoles, another meshport)")
    case LIBUSB_ERROR_TIMEOUT.rawValue:
        return USBError(.timeout, "\(what): timed out (\(name))")
    case LIBUSB_ERROR_PIPE.rawValue:
        return USBError(.stalled, "\(what): the device stalled the request (\(name))")
    default:
        return USBError(.other, "\(what): \(name)")
    }
}

enum USBFix {
    static let replug = "plug the radio in again; meshport scan lists what is connected"
    static let udevRule = "install Meshport's udev rule and replug the radio: sudo cp Tools/USB/99-meshport-usb.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger (Docs/usb.md)"
}
