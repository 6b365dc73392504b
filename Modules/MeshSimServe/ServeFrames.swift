import Foundation
import MeshDriverKit
import MeshCodec
import MeshSim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Answers every `<` frame read from `fd` with the same frame under `>`, until EOF: the link
/// alone, without a radio (driver tests, Tools/Benchmarks/TransportBench).
public func echoFrames(_ fd: Int32, ptyMaster: Bool, stopped: () -> Bool) -> Bool {
    serveFrames(fd, ptyMaster: ptyMaster, stopped: stopped) { SimLinkReply(frames: [$0]) }
}

public typealias FramePeer = @Sendable (_ fd: Int32, _ ptyMaster: Bool, _ stopped: () -> Bool) -> Bool

/// Writes to a peer's descriptor from the serving thread and from pushes on other threads:
/// one write at a time, so frames never interleave, and nothing once the link is closed
/// (the descriptor number may already belong to another link). With `faults`, written
/// frames may be corrupted, and writes delayed or held (LinkFaults.swift). With `lineRate`,
/// both directions go at a serial line's speed (LineRate.swift).
public final class FrameWriter: @unchecked Sendable {
    private let fd: Int32
    private let socket: Bool
    private let lock = NSLock()
    private var closed = false
    /// Set by `close` without the write lock, which a paced write holds for its whole length.
    private let closing = Mutex(false)
    let faults: LinkFaults?
    /// Set in `init` only, when the faults delay or hold writes.
    private(set) var output: DelayedOutput?
    private let outgoing: LinePacer?
    /// What the app sends crosses the line at the same speed; the serving thread waits for it.
    let incoming: LinePacer?

    public init(_ fd: Int32, faults: LinkFaults? = nil, lineRate: LineRate? = nil) {
        self.fd = fd
        socket = isSocket(fd)
        self.faults = faults
        outgoing = lineRate.map(LinePacer.init)
        incoming = lineRate.map(LinePacer.init)
        if let faults, faults.queuesWrites {
            output = DelayedOutput(delay: faults.delay) { [weak self] in _ = self?.writeNow($0) }
        }
    }

    /// Writes all of `bytes`; false when the link is closed or the write fails. Delayed writes
    /// only report a closed writer: a link that failed meanwhile shows on the reading side.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        if let output { return output.enqueue(bytes) }
        return writeNow(bytes)
    }

    private func writeNow(_ bytes: [UInt8]) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            guard let outgoing else { return writeAll(bytes[...]) }
            // Each burst is written when the line would have carried it.
            let start = outgoing.reserve(bytes.count)
            var off = 0
            while off < bytes.count {
                let end = min(bytes.count, off + outgoing.rate.burst)
                LinePacer.wait(until: start + outgoing.rate.duration(of: end))
                if closing.withLock({ $0 }) || !writeAll(bytes[off..<end]) { return false }
                off = end
            }
            return true
        }
    }

    private func writeAll(_ bytes: ArraySlice<UInt8>) -> Bool {
        var off = bytes.startIndex
        while off < bytes.endIndex {
            let w = bytes[off...].withUnsafeBufferPointer { writeNoSignal(fd, $0.baseAddress!, $0.count, socket: socket) }
            if w <= 0 { return false }
            off += w
        }
        return true
    }


    /// Frames `frame` for the app side and writes it (a push).
    @discardableResult
    public func writeFrame(_ frame: [UInt8]) -> Bool {
        do {
            let framed = try FrameEncoder.encode(frame, direction: .fromRadio)
            return write(faults?.write(framed) ?? framed)
        } catch {
            tellStandardError("meshport peer: cannot frame a push: \(error)")
            return false
        }
    }

    /// No writes after this (delayed ones are dropped); waits for one in progress.
    public func close() {
        output?.close()
        closing.withLock { $0 = true }
        lock.withLock { closed = true }
    }
}

/// Serves frames until EOF or a reply that drops the link; returns true when the far side must drop the link.
/// A pty master reads EIO while no slave is open: with `ptyMaster` that means wait, not stop.
/// Pass `writer` when something else writes to the link too (pushes); it is closed on return.
@discardableResult
public func serveFrames(_ fd: Int32, ptyMaster: Bool = false, stopped: () -> Bool = { false }, writer: FrameWriter? = nil,
                        _ handle: ([UInt8]) -> SimLinkReply) -> Bool {
    let writer = writer ?? FrameWriter(fd)
    defer { writer.close() }
    var decoder = FrameDecoder(direction: .toRadio)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !stopped() {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && ptyMaster && errno == EIO {
            decoder.reset()
            usleep(2000)
            continue
        }
        if n <= 0 { return false }
        // On a paced line the radio has these bytes only once they have crossed.
        if let incoming = writer.incoming { LinePacer.wait(until: incoming.reserve(n) + incoming.rate.duration(of: n)) }
        var out: [UInt8] = []
        var drop = false
        var unframable: (any Error)?
        decoder.feed(buffer[0..<n]) { event in
            guard case let .frame(f) = event, !drop, unframable == nil else { return }
            let fault = writer.faults?.received() ?? FaultPlan.Reception()
            if fault.stall > .zero {
                // Earlier frames of this chunk were answered before the stall began.
                if !out.isEmpty { writer.write(out) }
                out = []
                writer.stall(for: fault.stall, stopped: stopped)
            }
            let reply = handle(f)
            guard fault.answered else {
                drop = true
                return
            }
            out += reply.rawPrefix
            for frame in reply.frames {
                do {
                    var framed = try FrameEncoder.encode(frame, direction: .fromRadio)
                    if let faults = writer.faults { framed = faults.write(framed) }
                    out += reply.dropMidFrame ? Array(framed.prefix(framed.count / 2)) : framed
                } catch {
                    unframable = error
                }
            }
            drop = reply.dropMidFrame || reply.dropsLink || fault.dropsLink
        }
        if let unframable {
            // A reply the framing cannot carry is the peer's bug: end the link loudly.
            tellStandardError("meshport peer: cannot frame a reply: \(unframable)")
            return false
        }
        if !out.isEmpty, !writer.write(out) { return false }
        if drop {
            writer.flush()   // a delayed answer goes out before the link closes
            return true
        }
    }
    return false
}

/// A peer that could not be set up (no free port, no pty).
public struct PeerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// One line on stderr. The throwing write: the non-throwing one traps on EPIPE once SIGPIPE is
/// ignored, and a closed stderr must not take the peer down with it.
func tellStandardError(_ line: String) {
    do {
        try FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    } catch {
        // Nobody is reading: the line has nowhere to go.
    }
}
