import Foundation
import Hummingbird
import MeshCodec
import MeshServices
import MeshStore

/// Repeaters, room servers and sensors: logins, status, telemetry, room posts. Requests that
/// go over the mesh are POSTs: they spend airtime, so the Origin rule covers them.
extension Served {
    struct LoginBody: Decodable {
        /// nil: the password remembered for the node.
        let password: String?
        let remember: Bool?
    }

    func addRemoteRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("/remote") { _, context in
            let radio = try await self.radio(context).known()
            let sessions = try await api { try self.store.reader.savedLogins(radio.radio) }
            var out: [SavedLoginJSON] = []
            for s in sessions {
                let name = try await api { try self.store.reader.contact(radio.radio, key: s.node)?.name }
                out.append(SavedLoginJSON(s, name: name))
            }
            return try self.json(out)
        }
        r.post("/remote/:key/login") { request, context in
            let key = try self.key(context)
            let body = try await self.body(LoginBody.self, request)
            let remote = try await self.radio(context).services().remote
            let login = try await api {
                if let password = body.password { return try await remote.login(key, password: password, remember: body.remember ?? false) }
                return try await remote.login(key)
            }
            return try self.json(LoginJSON(login))
        }
        r.post("/remote/:key/logout") { _, context in
            let key = try self.key(context)
            let remote = try await self.radio(context).services().remote
            try await api { try await remote.logout(key) }
            return try self.json(OKJSON())
        }
        r.post("/remote/:key/status") { _, context in
            let key = try self.key(context)
            let remote = try await self.radio(context).services().remote
            return try self.json(RepeaterStatusJSON(try await api { try await remote.status(key) }))
        }
        r.post("/remote/:key/telemetry") { _, context in
            let key = try self.key(context)
            let remote = try await self.radio(context).services().remote
            let records = try await api { try await remote.telemetry(key) }
            return try self.json(ReadingsJSON(readings: records.map { ReadingJSON($0) }))
        }
        // The readings kept in the store, newest first (for charts).
        r.get("/remote/:key/telemetry") { request, context in
            let key = try self.key(context)
            let radio = try await self.radio(context).known()
            let limit = try self.limit(request, default: 100, max: 5000)
            let samples = try await api { try self.store.reader.telemetry(radio.radio, node: key, limit: limit) }
            return try self.json(ReadingsJSON(readings: samples.map { ReadingJSON($0.record, at: $0.recordedAt) }))
        }
        r.get("/remote/:key/posts") { request, context in
            let key = try self.key(context)
            let radio = try await self.radio(context).known()
            let before = try self.cursor(request)
            let limit = try self.limit(request, default: 50, max: 500)
            let posts = try await api { try self.store.reader.roomMessages(radio.radio, room: key, before: before, limit: limit + 1) }
            let page = Array(posts.prefix(limit))
            return try self.json(RoomPageJSON(posts: page.map(RoomPostJSON.init), older: posts.count > limit ? page.last.map { Cursor.encode($0.cursor) } : nil))
        }
        // The radio's own telemetry (SEND_TELEMETRY_REQ without a key).
        r.post("/telemetry") { _, context in
            let telemetry = try await self.radio(context).services().telemetry
            let records = try await api { try await telemetry.ownTelemetry() }
            return try self.json(ReadingsJSON(readings: records.map { ReadingJSON($0) }))
        }
    }
}
