import Foundation
import MeshCodec
import NIOCore
import NIOPosix

/// A client of the companion re-export speaking the TCP framing itself: frames in, frames out,
/// each received frame kept with the time it came.
final class CompanionClient: @unchecked Sendable {
    private let link: Task<Void, Never>
    private let outgoing: AsyncStream<ByteBuffer>.Continuation
    private let received = TestBox<[[UInt8]]>([])
    private let closed = TestBox(false)

    init(port: Int) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let (outgoingBytes, outgoing) = AsyncStream.makeStream(of: ByteBuffer.self)
        let received = received
        let closed = closed
        link = Task {
            defer { closed.update { $0 = true } }
            do {
                try await channel.executeThenClose { inbound, outbound in
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            var decoder = FrameDecoder(direction: .fromRadio)
                            do {
                                for try await chunk in inbound {
                                    for case let .frame(frame) in decoder.feed(chunk.readableBytesView) { received.update { $0.append(frame) } }
                                }
                            } catch {
                                // Closed by the server.
                            }
                        }
                        group.addTask {
                            do {
                                for await chunk in outgoingBytes { try await outbound.write(chunk) }
                            } catch {
                                // Closed by the server.
                            }
                        }
                        await group.next()
                        group.cancelAll()
                    }
                }
            } catch {
                // The connection could not be used; the test sees no frames.
            }
        }
        self.outgoing = outgoing
    }

    func send(_ frame: [UInt8]) throws {
        outgoing.yield(ByteBuffer(bytes: try FrameEncoder.encode(frame, direction: .toRadio)))
    }

    var frames: [[UInt8]] { received.get() }

    /// The server closed the connection (as it does when the radio's link goes down): what is
    /// sent from now on goes nowhere.
    var isClosed: Bool { closed.get() }

    /// Waits until `predicate` holds for the frames so far.
    func wait(_ what: String, within limit: Duration = .seconds(20), until predicate: @escaping @Sendable ([[UInt8]]) -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !predicate(frames) {
            guard ContinuousClock.now < deadline else { throw TestFailure("no \(what) within \(limit); frames: \(frames.map { Hex.encode($0.prefix(8)) })") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        outgoing.finish()
        link.cancel()
    }
}
