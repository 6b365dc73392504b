import CUSBFS
import Glibc
@testable import MeshUSB
import Testing

/// How a reaped URB's status and a failed usbfs call become outcomes and typed errors: an
/// unplug must read as an unplug whichever way usbfs reports it.
struct URBTests {
    @Test func statusesBecomeOutcomes() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        defer { buffer.deallocate() }
        let urb = URB.allocate(endpoint: 0x81, buffer: buffer, length: 64)
        defer { URB.free(urb) }
        #expect(urb.pointee.type == UInt8(MESHPORT_URB_TYPE_BULK) && urb.pointee.endpoint == 0x81 && urb.pointee.buffer_length == 64)
        let cases: [(Int32, URB.Outcome)] = [
            (0, .completed), (-ENOENT, .cancelled), (-ECONNRESET, .cancelled), (-ENODEV, .noDevice),
            (-ESHUTDOWN, .noDevice), (-EPIPE, .stall), (-EOVERFLOW, .overflow), (-EPROTO, .transferError(EPROTO)),
            (-EILSEQ, .transferError(EILSEQ)),
        ]
        for (status, outcome) in cases {
            urb.pointee.status = status
            #expect(URB.outcome(urb) == outcome, "status \(status)")
        }
    }

    @Test func failedCallsBecomeTypedErrors() {
        #expect(usbfsFailure(ENODEV, "reading X").kind == .unplugged)
        #expect(usbfsFailure(ESHUTDOWN, "reading X").fix == USBFix.replug)
        #expect(usbfsFailure(EPIPE, "writing to X").kind == .stalled)
        let memory = usbfsFailure(ENOMEM, "writing to X")
        #expect(memory.kind == .other && memory.message.hasPrefix("writing to X: ") && memory.fix?.contains("usbfs_memory_mb") == true)
        #expect(usbfsFailure(EINVAL, "reading X").message == "reading X: \(String(cString: strerror(EINVAL)))")
        #expect(USBError.unplugged("CDC-ACM 303a:1001") == USBError(.unplugged, "CDC-ACM 303a:1001 was unplugged", fix: USBFix.replug))
    }
}
