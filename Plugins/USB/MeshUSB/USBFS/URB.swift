import CUSBFS
import Glibc

/// One usbfs URB and how it ended. Bulk data goes through usbfs directly (libusb still finds,
/// opens, claims and sets up the device): each completion then costs one system call on the
/// reaper thread instead of libusb's poll, reap and reap-until-EAGAIN (Docs/usb.md, Benchmark).
enum URB {
    /// A zeroed URB for `endpoint` (bulk unless `type` says otherwise); its memory is the
    /// caller's until `free`.
    static func allocate(endpoint: UInt8, buffer: UnsafeMutableRawPointer, length: Int,
                         type: Int = MESHPORT_URB_TYPE_BULK) -> UnsafeMutablePointer<usbdevfs_urb> {
        let urb = UnsafeMutablePointer<usbdevfs_urb>.allocate(capacity: 1)
        urb.initialize(to: usbdevfs_urb())
        urb.pointee.type = UInt8(type)
        urb.pointee.endpoint = endpoint
        urb.pointee.buffer = buffer
        urb.pointee.buffer_length = Int32(length)
        return urb
    }

    static func free(_ urb: UnsafeMutablePointer<usbdevfs_urb>) {
        urb.deinitialize(count: 1)
        urb.deallocate()
    }

    /// How a reaped URB ended, from its (negative errno) status.
    enum Outcome: Equatable {
        case completed
        /// Discarded: by us (stopping), or killed by usbfs as the device went away.
        case cancelled
        case noDevice
        case stall
        case overflow
        /// A protocol error (EPROTO, EILSEQ, ETIME...): a glitch, or how an unplug begins.
        case transferError(Int32)
    }

    static func outcome(_ urb: UnsafeMutablePointer<usbdevfs_urb>) -> Outcome {
        switch -urb.pointee.status {
        case 0: return .completed
        case ENOENT, ECONNRESET: return .cancelled
        case ENODEV, ESHUTDOWN: return .noDevice
        case EPIPE: return .stall
        case EOVERFLOW: return .overflow
        case let code: return .transferError(code)
        }
    }
}

/// A failed usbfs call (`code` is its errno) as a typed error; `what` names the step.
func usbfsFailure(_ code: Int32, _ what: String) -> USBError {
    let name = String(cString: strerror(code))
    switch code {
    case ENODEV, ESHUTDOWN:
        return USBError(.unplugged, "\(what): the device was unplugged (\(name))", fix: USBFix.replug)
    case EPIPE:
        return USBError(.stalled, "\(what): the device stalled the endpoint (\(name))")
    case ENOMEM:
        return USBError(.other, "\(what): usbfs is out of transfer memory (\(name))",
                        fix: "raise /sys/module/usbcore/parameters/usbfs_memory_mb, or close other USB programs")
    default:
        return USBError(.other, "\(what): \(name)")
    }
}

extension USBError {
    /// The device named by `describe` left the bus while it was in use.
    static func unplugged(_ describe: String) -> USBError {
        USBError(.unplugged, "\(describe) was unplugged", fix: USBFix.replug)
    }
}
