import CLibUSB
import Glibc
import Synchronization

/// The thread that runs libusb's event handling for one context: every transfer callback of
/// a link runs here, one at a time, which is what the driver ABI asks of received/linkLost.
/// `stop` joins the thread, so its hold on the context has ended when it returns.
final class USBEventLoop: @unchecked Sendable {
    private let context: USBContext
    private let stopping = Atomic(false)
    private var thread: pthread_t?

    /// Called after each round of events; true asks for the next round within 50 ms.
    private let poll: () -> Bool

    init(_ context: USBContext, poll: @escaping () -> Bool) throws(USBError) {
        self.context = context
        self.poll = poll
        let retained = Unmanaged.passRetained(self)
        var t = pthread_t()
        let rc = pthread_create(&t, nil, { arg in
            Unmanaged<USBEventLoop>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, retained.toOpaque())
        guard rc == 0 else {
            retained.release()
            throw USBError(.other, "cannot start the USB event thread: \(String(cString: strerror(rc)))")
        }
        thread = t
    }

    private func run() {
        var soon = false
        while !stopping.load(ordering: .acquiring) {
            var tv = soon ? timeval(tv_sec: 0, tv_usec: 50_000) : timeval(tv_sec: 1, tv_usec: 0)
            let rc = libusb_handle_events_timeout_completed(context.raw, &tv, nil)
            // An error here (a failed poll) would return at once every time: never spin on it.
            if rc < 0 && rc != LIBUSB_ERROR_INTERRUPTED.rawValue { usleep(10_000) }
            soon = poll()
        }
    }

    /// Returns once the thread has left libusb for good.
    func stop() {
        stopping.store(true, ordering: .releasing)
        libusb_interrupt_event_handler(context.raw)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }
}
