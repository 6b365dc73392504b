import CUSBFS
import Foundation

/// Bulk OUT writes. A write copies the bytes into a URB and queues it: like a write to a
/// tty or socket, it returns once the data is with the system, not when the device took it.
/// usbfs keeps queued transfers in order. Up to `WriteQueue.maxQueuedBytes` may wait; a writer
/// beyond that waits for room (5 s at most). A transfer that fails (stall, short write) fails
/// the next write; an unplug fails it at once. A transfer that fills its last packet gets a
/// zero-length packet after it when the chip's class needs one to see the end.
///
/// URBs of up to `WriteQueue.slotBytes` (every frame) come back to a pool when done, so a write
/// costs no allocation; larger ones get their own, freed when done. Completions run on the
/// reaper thread; the bookkeeping is `WriteQueue`'s.
final class BulkWriter: @unchecked Sendable {
    private let reaper: URBReaper
    private let endpoint: USBEndpoint
    private let zeroLengthPackets: Bool
    private let describe: String
    private let condition = NSCondition()
    private let submitting = NSLock()
    private var queue = WriteQueue()

    /// How long a writer waits for room in the queue.
    static let timeoutMs: UInt32 = 5000

    init(reaper: URBReaper, endpoint: USBEndpoint, zeroLengthPackets: Bool, describe: String) {
        self.reaper = reaper
        self.endpoint = endpoint
        self.zeroLengthPackets = zeroLengthPackets
        self.describe = describe
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(USBError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let t = condition.withLock { queue.reuse(for: bytes.count) }
            ?? allocate(capacity: max(bytes.count, WriteQueue.slotBytes))
        t.pointee.buffer.copyMemory(from: base, byteCount: bytes.count)
        t.pointee.buffer_length = Int32(bytes.count)
        let zeroLengthPacket = zeroLengthPackets && bytes.count % max(1, endpoint.maxPacketSize) == 0
        t.pointee.flags = zeroLengthPacket ? UInt32(MESHPORT_URB_ZERO_PACKET) : 0
        // One writer at a time submits, so URBs go out in the order the writes came. Not under
        // `condition`: the completion takes that, and may come before the submit returns; a
        // writer preempted there would hold the reaper up (seen in a one-CPU guest trace).
        submitting.lock()
        defer { submitting.unlock() }
        let refused = condition.withLock { () -> USBError? in
            // The clock is read only when the queue is full: a write that need not wait reads none.
            var deadline: Date?
            while true {
                switch queue.admission(bytes.count, closing: USBError(.other, "\(describe) is closing")) {
                case .admit:
                    queue.list(t)
                    return nil
                case let .refuse(error):
                    return error
                case .wait:
                    let until = deadline ?? Date(timeIntervalSinceNow: Double(Self.timeoutMs) / 1000)
                    deadline = until
                    if !condition.wait(until: until) {
                        return USBError(.timeout, "\(describe) took no data for \(Self.timeoutMs) ms (\(queue.queuedBytes) bytes waiting)",
                                        fix: "is the radio running? a radio stuck in its bootloader takes no data")
                    }
                }
            }
        }
        if let refused {
            if !condition.withLock({ queue.pool(t) }) { Self.free(t) }
            throw refused
        }
        let code = reaper.submit(t)
        guard code == 0 else {
            // Never with usbfs: off the list as if done, and the caller hears why.
            finished(t, nil)
            throw usbfsFailure(code, "writing to \(describe)")
        }
        // `stop` may have come between listing and submitting: its discard missed this one.
        if condition.withLock({ queue.stopping }) { reaper.discard(t) }
    }

    private func allocate(capacity: Int) -> UnsafeMutablePointer<usbdevfs_urb> {
        URB.allocate(endpoint: endpoint.address, buffer: UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8), length: 0)
    }

    /// Frees the pool; only after `stop` returned true.
    func free() {
        condition.withLock { queue.takeSpare() }.forEach(Self.free)
    }

    /// Lets queued data go out (up to `drainSeconds`), cancels the rest and waits for usbfs to
    /// give every transfer back. False when some did not come back within 2 s more.
    @discardableResult
    func stop(drainSeconds: Double = 1) -> Bool {
        let drained = Date(timeIntervalSinceNow: drainSeconds)
        let pending = condition.withLock { () -> [UnsafeMutablePointer<usbdevfs_urb>] in
            while !queue.inFlight.isEmpty && queue.failure == nil { if !condition.wait(until: drained) { break } }
            return queue.stop()
        }
        for t in pending { reaper.discard(t) }
        let deadline = Date(timeIntervalSinceNow: 2)
        return condition.withLock {
            while !queue.inFlight.isEmpty { if !condition.wait(until: deadline) { break } }
            return queue.inFlight.isEmpty
        }
    }

    /// One of our URBs came back (reaper thread).
    func completed(_ t: UnsafeMutablePointer<usbdevfs_urb>) {
        let error: USBError?
        switch URB.outcome(t) {
        case .completed where t.pointee.actual_length == t.pointee.buffer_length:
            error = nil
        case .completed:
            error = USBError(.other, "\(describe) took \(t.pointee.actual_length) of \(t.pointee.buffer_length) bytes")
        case .cancelled, .noDevice:
            // Cancelled by `stop` (no error then), or killed as the device went away.
            error = .unplugged(describe)
        case .stall:
            error = USBError(.stalled, "\(describe) stalled a write")
        case .overflow, .transferError:
            error = USBError(.other, "a write to \(describe) failed (transfer error)")
        }
        finished(t, error)
    }

    /// The device is gone (reaper thread): every URB was reaped; later writes fail.
    func gone() {
        condition.withLock {
            queue.fail(.unplugged(describe))
            condition.broadcast()
        }
    }

    /// Takes a URB off the list, and back to the pool while there is room and the writer runs.
    private func finished(_ t: UnsafeMutablePointer<usbdevfs_urb>, _ error: USBError?) {
        let kept = condition.withLock { () -> Bool in
            defer { condition.broadcast() }
            return queue.finish(t, error: error)
        }
        if !kept { Self.free(t) }
    }

    private static func free(_ t: UnsafeMutablePointer<usbdevfs_urb>) {
        t.pointee.buffer.deallocate()
        URB.free(t)
    }
}
