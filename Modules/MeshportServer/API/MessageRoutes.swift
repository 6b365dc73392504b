import Foundation
import Hummingbird
import MeshCodec
import MeshServices
import MeshStore

/// Timelines, sending, and read state of DMs and channel chats.
extension Served {
    struct SendBody: Decodable { let text: String }

    func addMessageRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("/contacts/:key/messages") { request, context in
            try await self.page(request, context, .direct(try self.key(context)))
        }
        r.get("/channels/:index/messages") { request, context in
            try await self.page(request, context, .channel(try self.channelIndex(context)))
        }
        r.post("/contacts/:key/read") { _, context in try await self.markRead(context, .direct(try self.key(context))) }
        r.post("/channels/:index/read") { _, context in try await self.markRead(context, .channel(try self.channelIndex(context))) }

        // A DM: answered once the radio has sent it (status "sent"); its delivery follows on
        // the events stream (messageStatus) and in the timeline.
        r.post("/contacts/:key/messages") { request, context in
            let key = try self.key(context)
            let send = try await self.body(SendBody.self, request)
            let services = try await self.radio(context).services()
            let (radio, messenger) = (services.context, services.messenger)
            guard try await api({ try self.store.reader.contact(radio.radio, key: key) }) != nil else {
                throw APIError(.notFound, "contact_not_found", "the radio has no contact \(key.prefix(6).hex) to send to")
            }
            let report: DeliveryReport
            do {
                report = try await messenger.send(send.text, to: key, wait: false)
            } catch {
                throw APIError.from(error)
            }
            return try self.json(MessageJSON(report.message), status: .accepted)
        }
        r.post("/channels/:index/messages") { request, context in
            let index = try self.channelIndex(context)
            let send = try await self.body(SendBody.self, request)
            let messenger = try await self.radio(context).services().messenger
            let message: StoredMessage
            do {
                message = try await messenger.sendChannel(send.text, channel: index)
            } catch {
                throw APIError.from(error)
            }
            return try self.json(MessageJSON(message), status: .created)
        }
        r.get("/messages/:id") { _, context in
            let radio = try await self.radio(context).known()
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("message id must be a number") }
            guard let message = try await api({ try self.store.reader.message(radio.radio, id: id) }) else {
                throw APIError.notFound("no message \(id) on this radio")
            }
            return try self.json(MessageJSON(message))
        }
    }

    private func page(_ request: Request, _ context: APIRequestContext, _ conversation: Conversation) async throws(APIError) -> Response {
        let radio = try await self.radio(context).known()
        let before = try cursor(request)
        let limit = try limit(request, default: 50, max: 500)
        let page = try await api { try store.reader.timeline(radio.radio, conversation, before: before, limit: limit) }
        let answer = MessagePageJSON(messages: page.messages.map(MessageJSON.init), older: page.older.map(Cursor.encode))
        // A number JSON cannot hold: JSONEncoder's error names it.
        guard let bytes = MessagePageBytes.bytes(answer) else { return try json(answer) }
        return json(bytes: bytes)
    }

    private func markRead(_ context: APIRequestContext, _ conversation: Conversation) async throws(APIError) -> Response {
        let radio = try await self.radio(context).known()
        try await api { try await store.writer.markRead(radio.radio, conversation) }
        return try json(OKJSON())
    }
}
