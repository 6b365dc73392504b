import Foundation
import Hummingbird
import MeshCodec
import MeshServices
import MeshStore

/// A radio, its contacts and conversations, search and statistics.
extension Served {
    func addRadioRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("") { _, context in try await self.json(RadioJSON(try self.radio(context).summary)) }
        r.get("/self") { _, context in try await self.json(SelfInfoJSON(try self.radio(context).currentSelf())) }
        r.post("/advert") { request, context in
            let body = try await self.body(AdvertBody.self, request, whenEmpty: AdvertBody(flood: nil))
            let radio = try self.radio(context)
            let contacts = ContactsService(context: try await radio.ready())
            let flood = body.flood ?? false
            try await api { try await contacts.advertise(flood: flood) }
            return try self.json(AdvertJSON(try await radio.currentSelf(), flood: flood))
        }

        r.get("/contacts") { request, context in
            let radio = try await self.radio(context).known()
            let filter = try self.contactFilter(request)
            let limit = try self.limit(request, default: 500, max: 5000)
            let offset = try self.offset(request)
            let contacts = try await api { try self.store.reader.contacts(radio.radio, matching: filter, limit: limit, offset: offset) }
            return try self.json(contacts.map(ContactJSON.init))
        }
        r.get("/contacts/:key") { _, context in
            let radio = try await self.radio(context).known()
            let key = try self.key(context)
            guard let contact = try await api({ try self.store.reader.contact(radio.radio, key: key) }) else {
                throw APIError(.notFound, "contact_not_found", "radio \(try self.radio(context).id) has no contact \(key.prefix(6).hex)")
            }
            return try self.json(ContactJSON(contact))
        }

        r.get("/conversations") { request, context in
            let radio = try await self.radio(context).known()
            let limit = try self.limit(request, default: 100, max: 1000)
            let (list, unread) = try await api {
                (try self.store.reader.conversations(radio.radio, limit: limit), try self.store.reader.unreadCounts(radio.radio))
            }
            return try self.json(ConversationListJSON(conversations: list.map(ConversationJSON.init), totalUnread: unread.total))
        }

        r.get("/search") { request, context in
            let radio = try await self.radio(context).known()
            let text = request.uri.queryParameters.get("q") ?? ""
            guard !text.isEmpty else { throw APIError.badRequest("give the words to search for as ?q=") }
            let limit = try self.limit(request, default: 20, max: 200)
            let hits = try await api { try self.store.reader.search(radio.radio, try SearchQuery(text), limit: limit) }
            return try self.json(SearchJSON(query: text, hits: hits.map(SearchHitJSON.init)))
        }

        r.get("/stats") { request, context in
            let radio = try await self.radio(context).known()
            let node = try request.uri.queryParameters.get("node").map { text throws(APIError) -> PublicKey in
                guard let key = PublicKey(hex: text) else { throw APIError.badRequest("node \"\(text)\" is not a public key: 64 hex digits expected") }
                return key
            }
            let limit = try self.limit(request, default: 100, max: 5000)
            let samples = try await api { try self.store.reader.stats(radio.radio, node: node, limit: limit) }
            return try self.json(StatsHistoryJSON(node: node?.hex, samples: samples.map(StatsSampleJSON.init)))
        }
        r.post("/stats/sample") { _, context in
            let radio = try self.radio(context)
            let telemetry = try await radio.services().telemetry
            let stats = try await api { try await telemetry.sample() }
            await radio.statsRead(stats)
            return try self.json(StatsSampleJSON(stats.sample(at: Date())))
        }
    }

    /// POST /advert: zero-hop unless `flood` is true; no body is zero-hop too.
    struct AdvertBody: Decodable { let flood: Bool? }

    private func contactFilter(_ request: Request) throws(APIError) -> ContactFilter {
        var filter = ContactFilter(text: request.uri.queryParameters.get("q"))
        if let type = request.uri.queryParameters.get("type") {
            guard let found = (0...4).map({ NodeType(rawValue: UInt8($0)) }).first(where: { $0.description == type }) else {
                throw APIError.badRequest("type \"\(type)\" is none of chat, repeater, room, sensor, none")
            }
            filter.type = found
        }
        return filter
    }
}
