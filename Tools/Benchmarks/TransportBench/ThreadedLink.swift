import Foundation
import MeshCodec
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The second baseline: the same socket or pty in this process, shaped like a Transport
/// (a reader thread framing bytes into an AsyncStream, writes on the caller's thread) but
/// with no plugin: what is left between it and the plugin path is the C boundary.
final class ThreadedLink: @unchecked Sendable {
    private let link: DirectLink
    private let fd: Int32
    private var inbox: AsyncStream<[UInt8]>.Iterator
    private let stopped = StopFlag()
    private let finished = DispatchSemaphore(value: 0)

    init(_ link: DirectLink) {
        self.link = link
        fd = link.descriptor
        let (stream, sink) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        inbox = stream.makeAsyncIterator()
        Thread { [fd, stopped, finished] in
            var decoder = FrameDecoder(direction: .fromRadio)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            // Polls with a timeout so stop() ends it on a pty too (shutdown is for sockets).
            while !stopped.value.load(ordering: .relaxed) {
                guard poll(&ready, 1, 20) > 0 else { continue }
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                decoder.feed(buffer[0..<n]) { event in
                    if case let .frame(f) = event { sink.yield(f) }
                }
            }
            sink.finish()
            finished.signal()
        }.start()
    }

    func send(_ frame: [UInt8]) throws { try link.send(frame) }

    func receive() async throws -> [UInt8] {
        guard let frame = await inbox.next() else { throw BenchError("the link ended") }
        return frame
    }

    /// Ends the reader and waits for it, so the descriptor closes with nobody reading it.
    func stop() {
        stopped.value.store(true, ordering: .relaxed)
        finished.wait()
    }
}

private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
