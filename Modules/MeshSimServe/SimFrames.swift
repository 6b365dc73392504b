import Foundation
import MeshSim

/// Serves a MeshSim radio on each link a `TCPPeer` or `PtyPeer` hands over: the link attaches
/// as the radio's push sink (replacing the previous one, as the firmware's TCP server does),
/// every frame is answered by the radio, and scheduled pushes reach the link from the
/// radio's timer task. Start `radio.runTimers()` for pushes to happen in real time.
/// With `faults`, each link gets a fresh `FaultPlan` (numbered by the links served so far:
/// reproducible, but not the same random faults on every reconnect). A pty is one link until
/// the peer drops it, however often the app reopens it, as a cable stays plugged in.
/// With `lineRate`, each link goes at that serial speed both ways.
public func simFrames(_ radio: SimRadio, faults: SimFaults? = nil, lineRate: LineRate? = nil) -> FramePeer {
    let links = LinkCounter()
    return { fd, ptyMaster, stopped in
        let plan = faults.flatMap { $0.isEmpty ? nil : LinkFaults(FaultPlan($0, link: links.next())) }
        let writer = FrameWriter(fd, faults: plan, lineRate: lineRate)
        let link = waitFor { await radio.connect { writer.writeFrame($0) } }
        defer { waitFor { await radio.disconnect(link) } }
        return serveFrames(fd, ptyMaster: ptyMaster, stopped: stopped, writer: writer) { frame in
            waitFor { await radio.receive(frame) }
        }
    }
}

/// Runs `body` on the peers' executor and blocks until it is done. Peers serve on their own
/// threads, never on the cooperative pool, so blocking here starves nothing, and the pool
/// being busy never delays an answer.
private func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: PeerExecutor.shared) {
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

private final class LinkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int { lock.withLock { count += 1; return count } }
}
