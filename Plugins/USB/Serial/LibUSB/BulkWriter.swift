import CLibUSB
import Foundation

/// Bulk OUT writes. A write copies the bytes into a transfer and queues it: like a write to a
/// tty or socket, it returns once the data is with the system, not when the device took it.
/// usbfs keeps queued transfers in order. Up to `maxQueuedBytes` may wait; a writer beyond
/// that waits for room (5 s at most). A transfer that fails (stall, short write) fails the
/// next write; an unplug fails it at once. A transfer that fills its last packet gets a
/// zero-length packet after it when the chip's class needs one to see the end.
///
/// Transfers of up to `slotBytes` (every frame) come back to a pool when done, so a write
/// costs no allocation; larger ones get their own, freed when done.
final class BulkWriter: @unchecked Sendable {
    private let handle: USBDeviceHandle
    private let endpoint: USBEndpoint
    private let zeroLengthPackets: Bool
    private let describe: String
    private let condition = NSCondition()
    private var inFlight: [UnsafeMutablePointer<libusb_transfer>] = []
    private var queuedBytes = 0
    private var failure: USBError?
    private var stopping = false
    /// Pooled transfers not in flight (each with a `slotBytes` buffer).
    private var spare: [UnsafeMutablePointer<libusb_transfer>] = []

    /// A pooled transfer's buffer: a frame (176 bytes with its header) and then some.
    static let slotBytes = 512
    /// Pooled transfers kept when they come back; more in flight at once are freed after.
    static let keptSpare = 32

    /// How long a writer waits for room in the queue.
    static let timeoutMs: UInt32 = 5000
    /// Transfers carry no timeout of their own: that would arm a libusb timer on every write
    /// (measurably slower in the benchmark). A device that stops taking data fills the queue,
    /// and the next writer gives up after `timeoutMs`; close cancels what is left.
    static let transferTimeoutMs: UInt32 = 0
    static let maxQueuedBytes = 16 * 1024

    init(handle: USBDeviceHandle, endpoint: USBEndpoint, zeroLengthPackets: Bool, describe: String) {
        self.handle = handle
        self.endpoint = endpoint
        self.zeroLengthPackets = zeroLengthPackets
        self.describe = describe
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(USBError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let pooled = bytes.count <= Self.slotBytes
        let reused = pooled ? condition.withLock { spare.popLast() } : nil
        guard let t = reused ?? allocate(capacity: pooled ? Self.slotBytes : bytes.count) else {
            throw USBError(.other, "cannot allocate a USB transfer")
        }
        t.pointee.buffer.update(from: base, count: bytes.count)
        t.pointee.length = Int32(bytes.count)
        let zeroLengthPacket = zeroLengthPackets && bytes.count % max(1, endpoint.maxPacketSize) == 0
        t.pointee.flags = zeroLengthPacket ? UInt8(LIBUSB_TRANSFER_ADD_ZERO_PACKET.rawValue) : 0
        let deadline = Date(timeIntervalSinceNow: Double(Self.timeoutMs) / 1000)
        // Submitted under the lock, so `stop` finds every transfer that libusb holds.
        let refused = condition.withLock { () -> USBError? in
            while failure == nil && !stopping && queuedBytes > 0 && queuedBytes + bytes.count > Self.maxQueuedBytes {
                if !condition.wait(until: deadline) {
                    return USBError(.timeout, "\(describe) took no data for \(Self.timeoutMs) ms (\(queuedBytes) bytes waiting)",
                                    fix: "is the radio running? a radio stuck in its bootloader takes no data")
                }
            }
            if let failure { return failure }
            if stopping { return USBError(.other, "\(describe) is closing") }
            let rc = libusb_submit_transfer(t)
            guard rc == 0 else { return usbFailure(rc, "writing to \(describe)") }
            inFlight.append(t)
            queuedBytes += bytes.count
            return nil
        }
        if let refused {
            giveBack(t)
            throw refused
        }
    }

    private func allocate(capacity: Int) -> UnsafeMutablePointer<libusb_transfer>? {
        guard let t = libusb_alloc_transfer(0) else { return nil }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        libusb_fill_bulk_transfer(t, handle.raw, endpoint.address, buffer, 0, bulkOutCompleted,
                                  Unmanaged.passUnretained(self).toOpaque(), Self.transferTimeoutMs)
        return t
    }

    /// A transfer that is done: back to the pool while there is room and the writer runs.
    private func giveBack(_ t: UnsafeMutablePointer<libusb_transfer>) {
        let kept = t.pointee.length <= Int32(Self.slotBytes) && condition.withLock { () -> Bool in
            guard !stopping, spare.count < Self.keptSpare else { return false }
            spare.append(t)
            return true
        }
        if !kept { Self.free(t) }
    }

    /// Frees the pool; only after `stop` returned true.
    func free() {
        let pool = condition.withLock { () -> [UnsafeMutablePointer<libusb_transfer>] in
            defer { spare = [] }
            return spare
        }
        pool.forEach(Self.free)
    }

    /// Lets queued data go out (up to `drainSeconds`), cancels the rest and waits for libusb to
    /// give every transfer back. False when some did not come back within 2 s more.
    @discardableResult
    func stop(drainSeconds: Double = 1) -> Bool {
        let drained = Date(timeIntervalSinceNow: drainSeconds)
        let pending = condition.withLock { () -> [UnsafeMutablePointer<libusb_transfer>] in
            while !inFlight.isEmpty && failure == nil { if !condition.wait(until: drained) { break } }
            stopping = true
            return inFlight
        }
        for t in pending { _ = libusb_cancel_transfer(t) }
        let deadline = Date(timeIntervalSinceNow: 2)
        return condition.withLock {
            while !inFlight.isEmpty { if !condition.wait(until: deadline) { break } }
            return inFlight.isEmpty
        }
    }

    fileprivate func completed(_ t: UnsafeMutablePointer<libusb_transfer>) {
        let status = t.pointee.status
        let error: USBError?
        switch status {
        case LIBUSB_TRANSFER_COMPLETED where t.pointee.actual_length == t.pointee.length, LIBUSB_TRANSFER_CANCELLED:
            error = nil
        case LIBUSB_TRANSFER_COMPLETED:
            error = USBError(.other, "\(describe) took \(t.pointee.actual_length) of \(t.pointee.length) bytes")
        case LIBUSB_TRANSFER_NO_DEVICE:
            error = USBError(.unplugged, "\(describe) was unplugged", fix: "plug the radio in again; meshport scan lists what is connected")
        case LIBUSB_TRANSFER_STALL:
            error = USBError(.stalled, "\(describe) stalled a write")
        default:
            error = USBError(.other, "a write to \(describe) failed (transfer error)")
        }
        condition.withLock {
            if let i = inFlight.firstIndex(of: t) { inFlight.remove(at: i) }
            queuedBytes -= Int(t.pointee.length)
            if let error, failure == nil, !stopping { failure = error }
            condition.broadcast()
        }
        giveBack(t)
    }

    private static func free(_ t: UnsafeMutablePointer<libusb_transfer>) {
        t.pointee.buffer.deallocate()
        libusb_free_transfer(t)
    }
}

private func bulkOutCompleted(_ t: UnsafeMutablePointer<libusb_transfer>?) {
    guard let t, let context = t.pointee.user_data else { return }
    Unmanaged<BulkWriter>.fromOpaque(context).takeUnretainedValue().completed(t)
}
