import CUSBFS
import Foundation
import Glibc

/// The thread that reaps one device's URBs. It sleeps in USBDEVFS_REAPURB and hands each
/// completed URB to its endpoint's handler (IN to the reader, OUT to the writer), so every
/// completion of a link runs here, one at a time, as the driver ABI asks of received/linkLost.
///
/// libusb's own sync calls (the chips' control requests) reap the same descriptor, so they
/// must not run while this thread does: the link sets the chip up before `start` and tidies it
/// after `stop`.
final class URBReaper: @unchecked Sendable {
    let fd: Int32
    private var thread: pthread_t?
    private let exited = NSCondition()
    private var running = false
    private let onIn: (UnsafeMutablePointer<usbdevfs_urb>) -> Void
    private let onOut: (UnsafeMutablePointer<usbdevfs_urb>) -> Void
    /// The device is gone and every URB was reaped: nothing of it completes again.
    private let onGone: () -> Void
    /// Called after each wake; true asks to be called again within 50 ms (a deferred retry).
    private let poll: () -> Bool
    /// A GET_STATUS request that wakes the thread when `stop` finds nothing in flight.
    private let wake: UnsafeMutablePointer<usbdevfs_urb>
    private let wakeBuffer = UnsafeMutableRawPointer.allocate(byteCount: 10, alignment: 8)

    init(fd: Int32, onIn: @escaping (UnsafeMutablePointer<usbdevfs_urb>) -> Void,
         onOut: @escaping (UnsafeMutablePointer<usbdevfs_urb>) -> Void,
         onGone: @escaping () -> Void, poll: @escaping () -> Bool) {
        self.fd = fd
        self.onIn = onIn
        self.onOut = onOut
        self.onGone = onGone
        self.poll = poll
        // bmRequestType 0x80 (device to host, standard, device), GET_STATUS, wLength 2.
        let setup: [UInt8] = [0x80, 0x00, 0, 0, 0, 0, 2, 0]
        wakeBuffer.copyMemory(from: setup, byteCount: setup.count)
        wake = URB.allocate(endpoint: 0, buffer: wakeBuffer, length: 10, type: MESHPORT_URB_TYPE_CONTROL)
    }

    deinit {
        URB.free(wake)
        wakeBuffer.deallocate()
    }

    func start() throws(USBError) {
        let retained = Unmanaged.passRetained(self)
        exited.withLock { running = true }
        var t = pthread_t()
        let rc = pthread_create(&t, nil, { arg in
            let reaper = Unmanaged<URBReaper>.fromOpaque(arg!).takeRetainedValue()
            reaper.run()
            reaper.exited.withLock {
                reaper.running = false
                reaper.exited.broadcast()
            }
            return nil
        }, retained.toOpaque())
        guard rc == 0 else {
            retained.release()
            exited.withLock { running = false }
            throw USBError(.other, "cannot start the USB reaper thread: \(String(cString: strerror(rc)))")
        }
        thread = t
    }

    /// Submits `urb`; 0 or the errno.
    func submit(_ urb: UnsafeMutablePointer<usbdevfs_urb>) -> Int32 {
        meshport_usbfs_submit(fd, urb) == 0 ? 0 : meshport_errno()
    }

    /// Cancels `urb` if it is still in flight; it then completes as cancelled.
    func discard(_ urb: UnsafeMutablePointer<usbdevfs_urb>) {
        // EINVAL: it completed already, and is (or was) reaped as it was.
        _ = meshport_usbfs_discard(fd, urb)
    }

    /// Until the wake-up of `stop` comes back, or the device is gone.
    private func run() {
        var retrying = false
        while true {
            var urb: UnsafeMutablePointer<usbdevfs_urb>?
            var rc: Int32
            if retrying {
                // A deferred resubmission is due soon: wait for a completion no longer than that.
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = Glibc.poll(&p, 1, 50)
                rc = meshport_usbfs_reap_nodelay(fd, &urb)
            } else {
                rc = meshport_usbfs_reap(fd, &urb)
            }
            if rc == 0, let urb {
                if urb == wake { return }
                if urb.pointee.endpoint & 0x80 != 0 { onIn(urb) } else { onOut(urb) }
            } else {
                let code = meshport_errno()
                if code == ENODEV {
                    onGone()
                    return
                }
                if code != EAGAIN && code != EINTR {
                    // Not expected from usbfs (EFAULT, EBADF): never spin on it.
                    usleep(10_000)
                }
            }
            retrying = poll()
        }
    }

    /// Ends the thread; the reader and writer must be stopped first, so that the wake-up is
    /// the last URB it reaps. False when it did not end: the thread may still reap, so the
    /// caller must not use libusb on the device nor free what the thread touches.
    @discardableResult
    func stop(seconds: Double = 2) -> Bool {
        guard let thread else { return true }
        // After an unplug the submit fails, and the thread ends (or ended) on ENODEV.
        let submitted = submit(wake) == 0
        var ended = waitForExit(seconds)
        if !ended && submitted {
            // A device that never answers GET_STATUS: cancel it, which also wakes the thread.
            discard(wake)
            ended = waitForExit(1)
        }
        guard ended else { return false }
        pthread_join(thread, nil)
        self.thread = nil
        return true
    }

    private func waitForExit(_ seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return exited.withLock {
            while running { if !exited.wait(until: deadline) { break } }
            return !running
        }
    }
}
