import Hummingbird
import MeshCodec
import MeshServices
import MeshStore

/// The packet log: what the radio heard on air, newest first, in cursor pages.
extension Served {
    func addPacketRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("/packets") { request, context in
            let radio = try await self.radio(context).known()
            let filter = try self.packetFilter(request)
            let before = try self.cursor(request)
            let limit = try self.limit(request, default: 100, max: 500)
            let page = try await api { try self.store.reader.packets(radio.radio, filter, before: before, limit: limit) }
            return try self.json(PacketPageJSON(packets: page.packets.map(PacketJSON.init), older: page.older.map(Cursor.encode)))
        }
    }

    /// `type` (a payload type name, as `meshport packets --type` takes) and `node` (a key).
    private func packetFilter(_ request: Request) throws(APIError) -> PacketFilter {
        var filter = PacketFilter()
        if let name = request.uri.queryParameters.get("type") {
            guard let type = PacketJSON.payloadType(named: name) else {
                throw .badRequest("type \"\(name)\" is not a payload type: one of \(PacketJSON.typeNames.map(\.name).joined(separator: ", "))")
            }
            filter.payloadType = type
        }
        if let text = request.uri.queryParameters.get("node") {
            guard let key = PublicKey(hex: text) else { throw .badRequest("node \"\(text)\" is not a public key: 64 hex digits expected") }
            filter.node = key
        }
        return filter
    }
}

struct PacketPageJSON: Encodable, Sendable {
    var packets: [PacketJSON]
    /// Pass as `before` for the next (older) page; absent on the oldest page.
    var older: String?
}
