import Foundation
import Logging
import MeshCodec
import MeshServices
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The companion protocol re-exported over TCP (Docs/protocol.md §1.3 framing: `<` + u16 LE length
/// + frame in, `>` out), so clients made for a WiFi radio (meshcore-cli, meshcore_py, phone
/// apps) share a radio Meshport serves. Unlike the radio's own TCP interface, any number of
/// clients may be connected: each one's commands wait their turn with Meshport's, each answer
/// goes to the client that asked, and every push goes to every client.
struct CompanionEndpoint: Service {
    let address: ListenAddress
    let radio: ServedRadio
    let metrics: ServerMetrics
    let logger: Logger
    let announce: @Sendable (String) -> Void

    func run() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? address.port
        let bound = ListenAddress(host: address.host, port: port)
        if !address.isLoopback {
            logger.warning("the companion port \(bound) has no authentication (neither has a radio's own WiFi interface): anyone who can reach it can use radio \(radio.id)")
        }
        announce("meshport serve: companion for radio \(radio.id) (\(radio.url)) on tcp://\(bound)")
        let relay = CommandRelay(radio: radio, logger: logger)
        // On shutdown the listener and every client connection are closed: the cancellation
        // that does it is the expected end, not a failure of the service.
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingDiscardingTaskGroup { group in
                    try await server.executeThenClose { clients in
                        for try await client in clients {
                            group.addTask { await serve(client, relay: relay) }
                        }
                    }
                }
            }
        } catch where Task.isShuttingDownGracefully {
            logger.debug("companion for radio \(radio.id) on \(bound): closed for shutdown (\(error))")
        }
    }

    private func serve(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, relay: CommandRelay) async {
        metrics.companionClient(connected: true)
        defer { metrics.companionClient(connected: false) }
        let session = radio.client.session
        // Subscribed before the first command is read, so no push answering it is missed.
        let events = session.subscribe()
        do {
            try await client.executeThenClose { inbound, outbound in
                let out = FrameSink(outbound: outbound, metrics: metrics)
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in events {
                            guard case let .push(push) = event else { continue }
                            do {
                                try await out.send(try RadioFrame.push(push).encode())
                            } catch {
                                return
                            }
                        }
                    }
                    group.addTask {
                        var decoder = FrameDecoder(direction: .toRadio)
                        do {
                            for try await buffer in inbound {
                                for case let .frame(frame) in decoder.feed(buffer.readableBytesView) {
                                    metrics.companionFrame("to_radio")
                                    switch await relay.answer(frame) {
                                    case let .frames(frames): for f in frames { try await out.send(f) }
                                    case .none: break
                                    case .linkDown: return
                                    }
                                }
                            }
                        } catch {
                            // The client went away.
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("companion client closed: \(error)")
        }
    }
}

/// Writes whole frames to one client: answers and pushes come from two tasks, each frame is
/// one write, so they never interleave inside a frame.
private struct FrameSink: Sendable {
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let metrics: ServerMetrics

    func send(_ frame: [UInt8]) async throws {
        let bytes = try FrameEncoder.encode(frame, direction: .fromRadio)
        metrics.companionFrame("from_radio")
        try await outbound.write(ByteBuffer(bytes: bytes))
    }
}
