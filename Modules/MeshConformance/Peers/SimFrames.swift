import Foundation
import MeshSim

/// Serves a MeshSim radio on each link a `TCPPeer` or `PtyPeer` hands over: the link attaches
/// as the radio's push sink (replacing the previous one, as the firmware's TCP server does),
/// every frame is answered by the radio, and scheduled pushes reach the link from the
/// radio's timer task. Start `radio.runTimers()` for pushes to happen in real time.
public func simFrames(_ radio: SimRadio) -> FramePeer {
    { fd, ptyMaster, stopped in
        let writer = FrameWriter(fd)
        let link = waitFor { await radio.connect { writer.writeFrame($0) } }
        defer { waitFor { await radio.disconnect(link) } }
        return serveFrames(fd, ptyMaster: ptyMaster, stopped: stopped, writer: writer) { frame in
            waitFor { await radio.receive(frame) }
        }
    }
}

/// Runs `body` on the concurrency runtime and blocks until it is done. Peers serve on their
/// own threads, never on the cooperative pool, so blocking here starves nothing.
private func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.set(await body())
        done.signal()
    }
    done.wait()
    return box.take()
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T?

    func set(_ v: T) { lock.withLock { value = v } }

    func take() -> T {
        guard let v = lock.withLock({ value }) else { preconditionFailure("waitFor: the task signalled without a result") }
        return v
    }
}
