import CLibUSB
import CUSBFS
import Foundation
import Synchronization

/// Keeps a few bulk IN URBs queued on the data endpoint. Each completion (on the reaper thread)
/// hands the chip's payload to `onData` and is resubmitted; an unplug or error ends reading and
/// is reported once through `onEnd` (not when the reader is being stopped).
final class BulkReader: @unchecked Sendable {
    private let chip: any SerialChip
    private let maxPacket: Int
    private let handle: USBDeviceHandle
    private let reaper: URBReaper
    /// The URBs' buffers, in memory mapped from usbfs when the kernel offers it: the host
    /// controller then reads into them directly, with no kernel buffer to allocate and copy
    /// from on every transfer. Nil when each buffer was allocated on its own.
    private var mapped: (base: UnsafeMutablePointer<UInt8>, bytes: Int)?
    private let onData: (UnsafeBufferPointer<UInt8>) -> Void
    private let onEnd: (USBError) -> Void
    private let describe: String
    private var transfers: [UnsafeMutablePointer<usbdevfs_urb>] = []
    private let condition = NSCondition()
    private var active = 0
    /// Read on every completion without the lock; written under it.
    private let stopping = Atomic(false)
    private var ended = false
    /// Only touched by completions, which the reaper runs one at a time.
    private var scratch: [UInt8] = []

    static let queued = 4
    static let retriedErrors = 10
    static let retryDelay = Duration.milliseconds(100)
    /// Transfers waiting to be resubmitted after an error, with when.
    private var deferred: [(transfer: UnsafeMutablePointer<usbdevfs_urb>, due: ContinuousClock.Instant)] = [] {
        didSet { hasDeferred.store(!deferred.isEmpty, ordering: .relaxed) }
    }
    /// `deferred` is not empty; read after every wake without taking the lock.
    private let hasDeferred = Atomic(false)
    /// Transfer errors since the last completed transfer (callbacks only).
    private var errorsInARow = 0

    init(handle: USBDeviceHandle, reaper: URBReaper, endpoint: USBEndpoint, chip: any SerialChip, describe: String,
         onData: @escaping (UnsafeBufferPointer<UInt8>) -> Void, onEnd: @escaping (USBError) -> Void) throws(USBError) {
        self.chip = chip
        maxPacket = max(1, endpoint.maxPacketSize)
        self.onData = onData
        self.onEnd = onEnd
        self.describe = describe
        self.handle = handle
        self.reaper = reaper
        // Whole packets, so a chip's per-packet header is always at a packet boundary.
        let size = maxPacket * max(1, 4096 / maxPacket)
        scratch.reserveCapacity(size)
        if let base = libusb_dev_mem_alloc(handle.raw, size * Self.queued) { mapped = (base, size * Self.queued) }
        for i in 0..<Self.queued {
            let buffer = mapped.map { $0.base + i * size } ?? UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            transfers.append(URB.allocate(endpoint: endpoint.address, buffer: buffer, length: size))
        }
    }

    /// Submits every transfer; the reader must be stopped (and idle) before it is freed.
    func start() throws(USBError) {
        for t in transfers {
            // Counted first: the reaper may complete it before submit returns.
            condition.withLock { active += 1 }
            let code = reaper.submit(t)
            guard code == 0 else {
                back()
                stop()
                throw usbfsFailure(code, "starting to read \(describe)")
            }
        }
    }

    /// Cancels what is queued and waits (up to `seconds`) until every transfer has come back.
    /// False when some did not: their memory must then stay allocated.
    @discardableResult
    func stop(seconds: Double = 2) -> Bool {
        let pending = condition.withLock { () -> [UnsafeMutablePointer<usbdevfs_urb>] in
            stopping.store(true, ordering: .releasing)
            // Deferred transfers are not with usbfs: they are already back.
            active -= deferred.count
            let waiting = Set(deferred.map { UnsafeMutableRawPointer($0.transfer) })
            deferred = []
            return active > 0 ? transfers.filter { !waiting.contains(UnsafeMutableRawPointer($0)) } : []
        }
        for t in pending { reaper.discard(t) }
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while active > 0 { if !condition.wait(until: deadline) { break } }
            return active == 0
        }
    }

    /// Resubmits deferred transfers that are due (reaper thread); true while some still wait.
    func retryDue() -> Bool {
        // Deferring happens on this thread, so a deferral is never missed here.
        guard hasDeferred.load(ordering: .relaxed) else { return false }
        let now = ContinuousClock.now
        // Submitted under the lock, so `stop` either finds them deferred or cancels them.
        let (failures, waiting) = condition.withLock { () -> ([USBError], Bool) in
            let due = deferred.filter { $0.due <= now }.map(\.transfer)
            deferred.removeAll { $0.due <= now }
            let failures = due.compactMap { t -> USBError? in
                let code = reaper.submit(t)
                return code == 0 ? nil : usbfsFailure(code, "reading \(describe)")
            }
            return (failures, !deferred.isEmpty)
        }
        for failure in failures { end(failure) }
        return waiting
    }

    /// Frees the transfers; only after `stop` returned true.
    func free() {
        for t in transfers {
            if mapped == nil { t.pointee.buffer.deallocate() }
            URB.free(t)
        }
        transfers = []
        if let mapped { _ = libusb_dev_mem_free(handle.raw, mapped.base, mapped.bytes) }
        mapped = nil
    }

    /// One of our URBs came back (reaper thread).
    func completed(_ t: UnsafeMutablePointer<usbdevfs_urb>) {
        switch URB.outcome(t) {
        case .completed:
            errorsInARow = 0
            if t.pointee.actual_length > 0 && !stopping.load(ordering: .acquiring) {
                let bytes = UnsafeBufferPointer(start: t.pointee.buffer.assumingMemoryBound(to: UInt8.self), count: Int(t.pointee.actual_length))
                chip.payload(bytes, maxPacket: maxPacket, into: &scratch)
                if !scratch.isEmpty {
                    scratch.withUnsafeBufferPointer { onData($0) }
                    scratch.removeAll(keepingCapacity: true)
                }
            }
            requeue(t)
        case .cancelled where stopping.load(ordering: .acquiring):
            back()
        case .cancelled:
            // Not ours: usbfs kills what is queued as the device goes. Resubmitting tells which.
            requeue(t)
        case .noDevice:
            end(.unplugged(describe))
        case .stall:
            end(USBError(.stalled, "\(describe) stalled its bulk IN endpoint"))
        case .overflow:
            end(USBError(.other, "\(describe) sent more than a transfer holds (overflow)"))
        case let .transferError(code):
            // A protocol error is also how an unplug often starts (the port reports it before the
            // device is gone). As cdc-acm does, wait a little and try again: by then a vanished
            // device fails the resubmit with ENODEV, and a passing glitch is over.
            errorsInARow += 1
            guard errorsInARow <= Self.retriedErrors else {
                return end(USBError(.other, "reading \(describe) failed \(errorsInARow) times in a row (\(String(cString: strerror(code))))"))
            }
            let deferredNow = condition.withLock { () -> Bool in
                guard !stopping.load(ordering: .acquiring) else { return false }
                deferred.append((t, ContinuousClock.now + Self.retryDelay))
                return true
            }
            if !deferredNow { back() }
        }
    }

    /// The device is gone (reaper thread): reading has ended, if it had not already.
    func gone() {
        let report = condition.withLock { () -> Bool in
            active = 0
            deferred = []
            condition.broadcast()
            guard !stopping.load(ordering: .acquiring), !ended else { return false }
            ended = true
            return true
        }
        if report { onEnd(.unplugged(describe)) }
    }

    /// Queues the transfer again, unless the reader is stopping. Under the lock, so `stop`
    /// either sees it stopping or cancels what this queued.
    private func requeue(_ t: UnsafeMutablePointer<usbdevfs_urb>) {
        let rc = condition.withLock { () -> Int32? in
            stopping.load(ordering: .acquiring) ? nil : reaper.submit(t)
        }
        switch rc {
        case nil: back()
        case 0?: return
        case let code?: end(usbfsFailure(code, "reading \(describe)"))
        }
    }

    /// A transfer came back and stays back (stopping or cancelled).
    private func back() {
        condition.withLock {
            active -= 1
            condition.broadcast()
        }
    }

    /// One transfer is back for good; the first failure (outside stopping) is reported.
    private func end(_ failure: USBError) {
        let report = condition.withLock { () -> Bool in
            active -= 1
            condition.broadcast()
            guard !stopping.load(ordering: .acquiring), !ended else { return false }
            ended = true
            return true
        }
        if report { onEnd(failure) }
    }

}
