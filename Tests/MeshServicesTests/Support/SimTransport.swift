import Foundation
import MeshCodec
import MeshSim
import MeshTransport

/// A link to a `SimRadio` in the same process (`sim://NAME`): each frame sent is answered
/// by the radio, and its pushes arrive in order with the answers. Session logic runs against
/// the simulator without sockets; the TCP and serial drivers carry the same frames.
final class SimTransport: Transport, @unchecked Sendable {
    let url: TransportURL
    let frames: AsyncStream<[UInt8]>
    let states: AsyncStream<LinkState>
    private let radio: SimRadio
    private let frameSink: AsyncStream<[UInt8]>.Continuation
    private let stateSink: AsyncStream<LinkState>.Continuation
    private let lock = NSLock()
    private var link: Int?

    init(radio: SimRadio, name: String = "radio") throws {
        self.radio = radio
        url = try TransportURL("sim://\(name)")
        (frames, frameSink) = AsyncStream.makeStream()
        (states, stateSink) = AsyncStream.makeStream()
        stateSink.yield(.closed)
    }

    func open() async throws {
        stateSink.yield(.opening)
        let sink = frameSink
        let id = await radio.connect { sink.yield($0) }
        lock.withLock { link = id }
        stateSink.yield(.open)
    }

    func send(_ frame: [UInt8]) async throws {
        guard lock.withLock({ link }) != nil else { throw TransportError.closed(url.text) }
        let reply = await radio.receive(frame)
        for answer in reply.frames { frameSink.yield(answer) }
        if reply.dropsLink || reply.dropMidFrame { await lose("the radio restarted") }
    }

    func close() async {
        guard let id = lock.withLock({ link.take() }) else { return }
        await radio.disconnect(id)
        stateSink.yield(.closed)
        frameSink.finish()
        stateSink.finish()
    }

    /// The link fails as a radio that went away makes it fail.
    func lose(_ reason: String) async {
        guard let id = lock.withLock({ link.take() }) else { return }
        await radio.disconnect(id)
        stateSink.yield(.lost(.linkLost(url.text, reason: reason)))
        frameSink.finish()
        stateSink.finish()
    }
}
