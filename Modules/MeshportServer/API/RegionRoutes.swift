import Hummingbird
import MeshCodec
import MeshRegion
import MeshServices

/// The region history (`serve --history`, Docs/region.md): what many gateways heard, read from
/// PostgreSQL. Without --history every route answers 404 `region_off`.
extension Served {
    func addRegionRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("/summary") { _, _ in try self.json(RegionSummaryJSON(try await self.read { try await $0.summary() })) }
        r.get("/nodes") { request, _ in
            let (before, limit) = try self.page(request, default: 500, max: 5000)
            let page = try await self.read { try await $0.nodes(before: before, limit: limit) }
            let nodes = page.items.map(RegionNodeJSON.init)
            guard let bytes = RegionNodesJSON.bytes(nodes, older: page.older) else {
                // A number JSON cannot hold: JSONEncoder's error names it.
                return try self.json(RegionPageJSON(key: "nodes", items: nodes, older: page.older))
            }
            return self.json(bytes: bytes)
        }
        r.get("/nodes/:key/observations") { request, context in
            let text = context.parameters.get("key") ?? ""
            guard let key = PublicKey(hex: text) else { throw APIError.badRequest("\"\(text)\" is not a public key: 64 hex digits expected") }
            let (before, limit) = try self.page(request, default: 100, max: 500)
            let page = try await self.read { try await $0.observations(of: key.bytes, before: before, limit: limit) }
            return try self.json(RegionPageJSON(key: "observations", items: page.items.map(RegionObservationJSON.init), older: page.older))
        }
        r.get("/packets") { request, _ in
            var type: UInt8?
            if let name = request.uri.queryParameters.get("type") {
                guard let known = PacketJSON.payloadType(named: name) else {
                    throw APIError.badRequest("type \"\(name)\" is not a payload type: one of \(PacketJSON.typeNames.map(\.name).joined(separator: ", "))")
                }
                type = known.rawValue
            }
            let (before, limit) = try self.page(request, default: 100, max: 500)
            let page = try await self.read { [type] in try await $0.packets(type: type, before: before, limit: limit) }
            return try self.json(RegionPageJSON(key: "packets", items: page.items.map(RegionPacketJSON.init), older: page.older))
        }
        r.get("/channels/messages") { request, _ in
            let channel = request.uri.queryParameters.get("channel").map { String($0) }
            let (before, limit) = try self.page(request, default: 100, max: 500)
            let page = try await self.read { try await $0.channelMessages(channel: channel, before: before, limit: limit) }
            return try self.json(RegionPageJSON(key: "messages", items: page.items.map(RegionChannelMessageJSON.init), older: page.older))
        }
        r.get("/observers") { _, _ in
            try self.json(["observers": try await self.read { try await $0.observers() }.map(RegionObserverJSON.init)])
        }
        r.get("/links") { request, _ in
            let hours = try self.hours(request, default: 24 * 7)
            return try self.json(["links": try await self.read { try await $0.links(hours: hours, limit: 20_000) }.map(RegionLinkJSON.init)])
        }
        r.get("/hours") { request, _ in
            let hours = try self.hours(request, default: 48)
            return try self.json(["hours": try await self.read { try await $0.hours(hours) }.map(RegionHourJSON.init)])
        }
    }

    /// Runs `body` on the region history; 404 without one, 503 while its database is away.
    private func read<T: Sendable>(_ body: (RegionHistory) async throws -> T) async throws(APIError) -> T {
        guard let region else { throw APIError(.notFound, "region_off", "this server keeps no region history: start it with --history postgres://...") }
        do {
            return try await body(region)
        } catch let error as RegionHistoryError {
            switch error {
            case .unavailable: throw APIError(.serviceUnavailable, "region_unavailable", error.description)
            case .invalidURL, .failed: throw APIError(.internalServerError, "region_error", error.description)
            }
        } catch {
            throw APIError(.internalServerError, "region_error", "reading the region history failed: \(error)")
        }
    }

    private func page(_ request: Request, default fallback: Int, max: Int) throws(APIError) -> (RegionCursor?, Int) {
        let limit = try limit(request, default: fallback, max: max)
        guard let text = request.uri.queryParameters.get("before") else { return (nil, limit) }
        do {
            return (try RegionCursor(encoded: String(text)), limit)
        } catch {
            throw .badRequest(error.description)
        }
    }

    private func hours(_ request: Request, default fallback: Int) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters.get("hours") else { return fallback }
        guard let n = Int(text), (1...24 * 366).contains(n) else { throw .badRequest("hours \"\(text)\" must be a number from 1 to 8784") }
        return n
    }
}

/// One page of a region list under its own key, with the cursor of the next (older) one.
struct RegionPageJSON<Item: Encodable & Sendable>: Encodable, Sendable {
    let key: String
    let items: [Item]
    let older: RegionCursor?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key(stringValue: key))
        try container.encodeIfPresent(older?.encoded, forKey: Key(stringValue: "older"))
    }
}
