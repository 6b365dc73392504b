import Foundation
import Hummingbird
import MeshCodec
import MeshServices
import MeshStore

/// Channel slots: list, join, set, empty. Secrets go in, never out.
extension Served {
    /// A slot to set or join: a `#hashtag` name needs nothing else; a private channel takes a
    /// 32-hex-digit secret or a passphrase.
    struct ChannelBody: Decodable {
        let name: String
        let secret: String?
        let passphrase: String?
    }

    func addChannelRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("/channels") { _, context in
            let radio = try await self.radio(context).known()
            let slots = try await api { try self.store.reader.channels(radio.radio) }
            return try self.json(slots.map(ChannelJSON.init))
        }
        // Joins in the first free slot (an existing slot with the same channel is returned).
        r.post("/channels") { request, context in
            let body = try await self.body(ChannelBody.self, request)
            let channels = ChannelsService(context: try await self.radio(context).ready())
            let secret = try self.secret(body)
            let slot = try await api {
                if let secret { return try await channels.join(name: body.name, secret: secret) }
                return try await channels.join(hashtag: body.name)
            }
            return try self.json(ChannelJSON(slot), status: .created)
        }
        r.put("/channels/:index") { request, context in
            let index = try self.channelIndex(context)
            let body = try await self.body(ChannelBody.self, request)
            let channels = ChannelsService(context: try await self.radio(context).ready())
            let secret = try self.secret(body) ?? (body.name.hasPrefix("#") ? .hashtag(body.name) : nil)
            guard let secret else { throw APIError.badRequest("a channel that is not a #hashtag needs a secret (32 hex digits) or a passphrase") }
            let slot = try await api { try await channels.set(ChannelInfo(index: index, name: body.name, secret: secret)) }
            return try self.json(ChannelJSON(slot))
        }
        r.delete("/channels/:index") { _, context in
            let index = try self.channelIndex(context)
            let channels = ChannelsService(context: try await self.radio(context).ready())
            try await api { try await channels.remove(index) }
            return try self.json(OKJSON())
        }
    }

    private func secret(_ body: ChannelBody) throws(APIError) -> ChannelSecret? {
        switch (body.secret, body.passphrase) {
        case (nil, nil): return nil
        case let (hex?, nil):
            guard let secret = ChannelSecret(hex: hex) else { throw APIError.badRequest("the secret must be 32 hex digits (16 bytes)") }
            return secret
        case let (nil, phrase?):
            guard !phrase.isEmpty else { throw APIError.badRequest("the passphrase is empty") }
            return .passphrase(phrase)
        case (_?, _?):
            throw APIError.badRequest("give a secret or a passphrase, not both")
        }
    }
}
