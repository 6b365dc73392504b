import Foundation
import Hummingbird
import HummingbirdWebSocket
import MeshServices
import NIOWebSocket

/// `/api/events`: after the upgrade the client gets a `hello` event with every radio's state,
/// then each event as one JSON text message. What clients send is read (so a close is seen)
/// and ignored. A client that falls a whole buffer behind is closed with 1013 (try again
/// later): it reconnects, gets a fresh `hello`, and reloads what it shows over REST.
extension Served {
    func addEventsSocket(to router: Router<APIRequestContext>) {
        let policy = policy
        router.ws("/api/events") { request, _ in
            // A refused upgrade falls through to the HTTP router, whose answer says why.
            do {
                try policy.check(request)
            } catch {
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            await self.stream(inbound: inbound, outbound: outbound)
        }
    }

    private func stream(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let broadcaster = publisher.broadcaster
        let subscription = broadcaster.subscribe()
        defer {
            subscription.cancel()
            broadcaster.release(subscription.id)
        }
        guard let text = publisher.encode(EventJSON(.hello(radios: await radioList()))) else { return }
        do {
            try await outbound.write(.text(text))
        } catch {
            return
        }
        await withTaskGroup(of: Ended.self) { group in
            group.addTask {
                do {
                    for try await _ in inbound {}
                } catch {
                    // The client went away mid-frame: the same as a close.
                }
                return .client
            }
            group.addTask {
                do {
                    for await event in subscription.events { try await outbound.write(.text(event)) }
                    if subscription.overflowed {
                        try await outbound.close(.unknown(1013), reason: "more than \(broadcaster.capacity) events behind; reconnect and reload")
                    }
                } catch {
                    // The connection closed while writing (or the write was cancelled below).
                }
                return .writer
            }
            group.addTask {
                // A client that fell a buffer behind gets `overflowGrace` to take what is
                // buffered and the 1013 close; one that reads nothing at all never lets the
                // writer finish, so its connection is then dropped.
                for await _ in subscription.overflow {
                    do {
                        try await Task.sleep(for: Self.overflowGrace)
                    } catch {
                        return .idle
                    }
                    return .gaveUp
                }
                return .idle
            }
            while let ended = await group.next() {
                if ended != .idle { break }
            }
            group.cancelAll()
        }
    }

    /// How long a client closed for falling behind has to read its last events.
    static let overflowGrace: Duration = .seconds(5)

    private enum Ended: Sendable { case client, writer, gaveUp, idle }
}
