import Foundation
import MeshCodec
import MeshStore

/// Keeps each message SYNC_NEXT_MESSAGE hands over (Docs/protocol.md §7.3) before the next is
/// asked for: DMs matched to contacts by their 6-byte prefix (unknown senders kept with the
/// prefix), channel messages with sender and text split, room server posts in their room's
/// history (de-duplicated there). Each new message reaches front ends as an event.
struct MessageDrain: Sendable {
    let context: ServiceContext
    var now: @Sendable () -> Date = { Date() }

    func keep(_ answer: Response) async throws {
        let (radio, writer, receivedAt) = (context.radio, context.store.writer, now())
        switch answer {
        case let .contactMessage(message):
            if let room = try roomSender(message) {
                let saved = try await writer.saveRoomMessages(radio, room: room, [message], receivedAt: receivedAt)
                if saved.contains(where: { !$0.isDuplicate }) { context.events.emit(.roomPost(room: room, message)) }
                return
            }
            try await save(.direct(message, receivedAt: receivedAt))
        case let .channelMessage(message):
            try await save(.channel(message, receivedAt: receivedAt))
        case let .channelData(datagram):
            // Datagrams carry application payloads, not chat: handed to front ends, not stored.
            context.events.emit(.datagram(datagram))
        default:
            break
        }
    }

    private func save(_ message: IncomingMessage) async throws {
        let radio = context.radio
        for saved in try await context.store.writer.saveIncoming(radio, [message]) where !saved.isDuplicate {
            if let stored = try context.store.reader.message(radio, id: saved.id) {
                context.events.emit(.messageReceived(stored))
            }
        }
    }

    /// The room server a DM came from, when its sender is one.
    private func roomSender(_ message: ContactMessage) throws -> PublicKey? {
        guard case let .found(contact) = try context.store.reader.lookupContact(context.radio, prefix: message.senderPrefix),
              contact.contact.type == .room else { return nil }
        return contact.publicKey
    }
}
