import Foundation
import MeshDriverKit
#if canImport(Glibc)
import Glibc
#endif

/// A peer on two byte streams, `meshport sim --stdio`'s stdin and stdout: whatever carries
/// them (a pipe, socat to a pty or a socket, a model of a serial adapter) is the link. The
/// streams are one link, as a cable is: it ends when the input reaches end of file, the
/// output's reader goes away, or the peer drops it (the drop command or a fault); a new link is a
/// new process (socat's `fork` starts one per connection).
/// `serve` gets one end of a socket pair, so serving code written for one descriptor serves
/// two; a thread copies the input into the other end and one copies what comes out of it to
/// the output.
public final class StdioPeer: @unchecked Sendable {
    /// Why the link ended.
    public enum End: Sendable, CustomStringConvertible {
        case inputClosed, outputClosed, dropped, failed

        public var description: String {
            switch self {
            case .inputClosed: "its input reached end of file"
            case .outputClosed: "the reader of its output went away"
            case .dropped: "the radio dropped the link (a fault or the conformance drop hook)"
            case .failed: "serving the radio failed (the reason is above)"
            }
        }
    }

    private let lock = NSLock()
    private var end: End?
    private let ended: AsyncStream<End>

    /// Starts serving at once; the process ends the threads when it exits.
    public init(serve: @escaping FramePeer, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw PeerError("cannot make a socket pair for stdin/stdout: \(String(cString: strerror(errno)))")
        }
        let (inner, outer) = (pair[0], pair[1])
        let (ended, endSink) = AsyncStream<End>.makeStream()
        self.ended = ended
        Thread { [self] in
            Self.copy(from: input, to: outer, socket: true)
            record(.inputClosed)
            // The serving side reads end of file after what was copied.
            shutdown(outer, Int32(SHUT_WR))
        }.start()
        Thread { [self] in
            record(serve(inner, false) { false } ? .dropped : .failed)
            // The copy to the output gets what was written, then end of file.
            Glibc.close(inner)
        }.start()
        // Only this thread announces the end: by then everything the radio wrote is out.
        Thread { [self] in
            if !Self.copy(from: outer, to: output, socket: false) { record(.outputClosed) }
            endSink.yield(lock.withLock { end } ?? .failed)
            endSink.finish()
        }.start()
    }

    /// Returns once the link has ended, and why; nil when the waiting task is cancelled first.
    public func waitUntilEnded() async -> End? {
        for await end in ended { return end }
        return nil
    }

    /// The first reason wins: end of input comes before the end of serving it causes.
    private func record(_ reason: End) {
        lock.withLock { if end == nil { end = reason } }
    }

    /// Copies until end of file or an error; false when writing failed (the reader went away).
    @discardableResult
    private static func copy(from source: Int32, to sink: Int32, socket: Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(source, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return true }
            var off = 0
            while off < n {
                let w = buffer[off..<n].withUnsafeBufferPointer { writeNoSignal(sink, $0.baseAddress!, $0.count, socket: socket) }
                if w < 0 && errno == EINTR { continue }
                if w <= 0 { return false }
                off += w
            }
        }
    }
}
