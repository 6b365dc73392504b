import CLibUSB
import Foundation

/// Bulk OUT writes, one at a time (the driver ABI serialises sends). Each write is one
/// asynchronous transfer completed on the event thread; a transfer that fills its last packet
/// gets a zero-length packet after it when the chip's class needs one to see the end.
final class BulkWriter: @unchecked Sendable {
    private let handle: USBDeviceHandle
    private let endpoint: USBEndpoint
    private let zeroLengthPackets: Bool
    private let describe: String
    static let timeoutMs: UInt32 = 5000

    init(handle: USBDeviceHandle, endpoint: USBEndpoint, zeroLengthPackets: Bool, describe: String) {
        self.handle = handle
        self.endpoint = endpoint
        self.zeroLengthPackets = zeroLengthPackets
        self.describe = describe
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(USBError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard let t = libusb_alloc_transfer(0) else { throw USBError(.other, "cannot allocate a USB transfer") }
        defer { libusb_free_transfer(t) }
        let done = Completion()
        let box = Unmanaged.passRetained(done)
        defer { box.release() }
        // libusb only reads an OUT buffer; it stays valid because this call waits for the end.
        libusb_fill_bulk_transfer(t, handle.raw, endpoint.address, UnsafeMutablePointer(mutating: base), Int32(bytes.count),
                                  bulkOutCompleted, box.toOpaque(), Self.timeoutMs)
        if zeroLengthPackets && bytes.count % max(1, endpoint.maxPacketSize) == 0 {
            t.pointee.flags = UInt8(LIBUSB_TRANSFER_ADD_ZERO_PACKET.rawValue)
        }
        let rc = libusb_submit_transfer(t)
        guard rc == 0 else { throw usbFailure(rc, "writing to \(describe)") }
        // libusb ends the transfer at its own timeout; the extra margin only guards a stuck event thread.
        if done.signal.wait(timeout: .now() + .milliseconds(Int(Self.timeoutMs) + 2000)) == .timedOut {
            _ = libusb_cancel_transfer(t)
            done.signal.wait()
        }
        switch t.pointee.status {
        case LIBUSB_TRANSFER_COMPLETED where Int(t.pointee.actual_length) == bytes.count:
            return
        case LIBUSB_TRANSFER_COMPLETED:
            throw USBError(.other, "\(describe) took \(t.pointee.actual_length) of \(bytes.count) bytes")
        case LIBUSB_TRANSFER_TIMED_OUT, LIBUSB_TRANSFER_CANCELLED:
            throw USBError(.timeout, "write to \(describe) not taken within \(Self.timeoutMs) ms (\(t.pointee.actual_length) of \(bytes.count) bytes sent)",
                           fix: "is the radio running? a radio stuck in its bootloader takes no data")
        case LIBUSB_TRANSFER_NO_DEVICE:
            throw USBError(.unplugged, "\(describe) was unplugged during a write")
        case LIBUSB_TRANSFER_STALL:
            // Clear the halt so the next write can go through.
            _ = libusb_clear_halt(handle.raw, endpoint.address)
            throw USBError(.stalled, "\(describe) stalled a write")
        default:
            throw USBError(.other, "write to \(describe) failed (transfer error)")
        }
    }
}

private final class Completion: @unchecked Sendable {
    let signal = DispatchSemaphore(value: 0)
}

private func bulkOutCompleted(_ t: UnsafeMutablePointer<libusb_transfer>?) {
    guard let t, let context = t.pointee.user_data else { return }
    Unmanaged<Completion>.fromOpaque(context).takeUnretainedValue().signal.signal()
}
