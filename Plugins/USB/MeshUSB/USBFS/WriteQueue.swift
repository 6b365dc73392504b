import CUSBFS

/// The bulk writer's bookkeeping, without I/O: the URBs usbfs holds (in submission order), the
/// bytes they carry, the first failure, and the pool of frame-sized URBs. `BulkWriter` keeps it
/// under its lock and does the system calls; its rules are tested here without a device.
struct WriteQueue {
    typealias Transfer = UnsafeMutablePointer<usbdevfs_urb>

    /// A pooled transfer's buffer: a frame (176 bytes with its header) and then some.
    static let slotBytes = 512
    /// Pooled transfers kept when they come back; more in flight at once are freed after.
    static let keptSpare = 32
    /// Bytes that may wait in usbfs. URBs carry no timeout of their own (usbfs has none for
    /// async URBs): a device that stops taking data fills the queue, and the next writer waits.
    static let maxQueuedBytes = 16 * 1024

    private(set) var inFlight: [Transfer] = []
    private(set) var queuedBytes = 0
    /// The first transfer failure (or the unplug); every later write fails with it.
    private(set) var failure: USBError?
    private(set) var stopping = false
    private var spare: [Transfer] = []

    enum Admission: Equatable {
        case admit
        /// The queue is full: wait for completions.
        case wait
        case refuse(USBError)
    }

    /// Whether a write of `count` bytes may be queued now. One larger than the whole queue is
    /// admitted once the queue is empty.
    func admission(_ count: Int, closing: @autoclosure () -> USBError) -> Admission {
        if let failure { return .refuse(failure) }
        if stopping { return .refuse(closing()) }
        if queuedBytes > 0 && queuedBytes + count > Self.maxQueuedBytes { return .wait }
        return .admit
    }

    /// A pooled transfer for a write of `count` bytes, if one is free.
    mutating func reuse(for count: Int) -> Transfer? {
        count <= Self.slotBytes ? spare.popLast() : nil
    }

    /// Lists `t` (filled, `buffer_length` set) before it is submitted, so that `stop` finds every
    /// URB usbfs may hold.
    mutating func list(_ t: Transfer) {
        inFlight.append(t)
        queuedBytes += Int(t.pointee.buffer_length)
    }

    /// `t` came back (or was never submitted); `error` is why it failed, if it did. True when it
    /// went back to the pool; false when the caller must free it.
    mutating func finish(_ t: Transfer, error: USBError?) -> Bool {
        // Usually the oldest: usbfs completes a queue's URBs in order.
        if let i = inFlight.firstIndex(of: t) { inFlight.remove(at: i) }
        queuedBytes -= Int(t.pointee.buffer_length)
        if let error { fail(error) }
        return pool(t)
    }

    /// Keeps a frame-sized transfer for the next write while there is room and the writer runs.
    mutating func pool(_ t: Transfer) -> Bool {
        guard !stopping, t.pointee.buffer_length <= Int32(Self.slotBytes), spare.count < Self.keptSpare else { return false }
        spare.append(t)
        return true
    }

    /// From now on every write is refused; returns what usbfs still holds, to be cancelled.
    mutating func stop() -> [Transfer] {
        stopping = true
        return inFlight
    }

    /// A transfer failed or the device is gone: later writes fail with `error`, unless an
    /// earlier failure came first or the writer is stopping.
    mutating func fail(_ error: USBError) {
        if failure == nil && !stopping { failure = error }
    }

    /// Empties the pool, for the caller to free.
    mutating func takeSpare() -> [Transfer] {
        defer { spare = [] }
        return spare
    }
}
