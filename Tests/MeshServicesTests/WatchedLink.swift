import Foundation
import MeshCodec
import MeshTransport

/// A link that remembers every command sent through it and shows each frame to a watcher
/// before the far side gets it.
final class WatchedLink: Transport, @unchecked Sendable {
    private let inner: any Transport
    private let lock = NSLock()
    private var commands: [Command] = []
    private var watcher: (@Sendable ([UInt8]) -> Void)?

    init(_ inner: any Transport) { self.inner = inner }

    var url: TransportURL { inner.url }
    var frames: AsyncStream<[UInt8]> { inner.frames }
    var states: AsyncStream<LinkState> { inner.states }
    func open() async throws { try await inner.open() }
    func close() async { await inner.close() }

    func send(_ frame: [UInt8]) async throws {
        let watcher = lock.withLock { self.watcher }
        watcher?(frame)
        do {
            let command = try Command(decoding: frame)
            lock.withLock { commands.append(command) }
        } catch {
            // Frames the codec cannot read are still sent: the far side answers them.
        }
        try await inner.send(frame)
    }

    func watch(_ f: @escaping @Sendable ([UInt8]) -> Void) { lock.withLock { watcher = f } }

    var sent: [Command] { lock.withLock { commands } }
}
