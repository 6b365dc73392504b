import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MeshCodec
import MeshServices
import MeshStore

/// Every HTTP route (Docs/openapi.json lists them with their answers).
extension Served {
    func addRoutes(to router: Router<APIRequestContext>, web: WebFiles) {
        router.get("/healthz") { _, _ in try await self.health() }
        router.get("/metrics") { _, _ in await self.metricsText() }
        router.post("/api/session") { request, _ in try await self.login(request) }
        router.get("/api/events") { _, _ -> Response in
            // Reached only when the upgrade was not made: a plain GET, or one the rules refused.
            throw APIError(.badRequest, "websocket_required", "/api/events is a WebSocket: connect with an Upgrade: websocket request")
        }
        router.get("/api/backup") { _, context in try await self.backup(logger: context.logger) }
        router.get("/api/radios") { _, _ in try await self.json(self.radioList()) }
        router.get("/api/map") { _, _ in try self.json(web.map) }
        router.get("/api/server") { _, _ in try self.json(ServerJSON(version: MeshportVersion.text, regionHistory: self.region != nil)) }
        addRegionRoutes(router.group("/api/region"))
        let radio = router.group("/api/radios/:radio")
        addRadioRoutes(radio)
        addMessageRoutes(radio)
        addChannelRoutes(radio)
        addRemoteRoutes(radio)
        addSettingsRoutes(radio)
        addPacketRoutes(radio)
        // Any other path under /api/ is none, whatever the method.
        for method in Router<APIRequestContext>.otherMethods {
            router.on("/api/**", method: method) { request, _ -> Response in throw APIError.notFound("no API route \(request.method) \(request.uri.path)") }
        }
        router.get("\(WebFiles.leafletMount)/**") { request, _ in
            guard let leaflet = web.leaflet else { throw APIError.notFound("Leaflet is not installed here (Debian: apt install libjs-leaflet)") }
            return try leaflet.response(for: request, metrics: self.metrics)
        }
        router.get("/") { request, _ in try web.site.response(for: request, metrics: self.metrics) }
        router.get("/**") { request, _ in try web.site.response(for: request, metrics: self.metrics) }
    }

    func radioList() async -> [RadioJSON] {
        var out: [RadioJSON] = []
        for radio in radios { out.append(RadioJSON(await radio.summary)) }
        return out
    }

    /// Liveness: the server answers (200 whatever the radios do); how many radios are ready
    /// is said, and each one's state is in /api/radios.
    private func health() async throws(APIError) -> Response {
        var ready = 0
        for radio in radios where await radio.summary.state == .ready { ready += 1 }
        return try json(HealthJSON(status: "ok", radios: radios.count, ready: ready))
    }

    private func metricsText() async -> Response {
        var summaries: [RadioSummary] = []
        for radio in radios {
            summaries.append(await radio.summary)
            await radio.readFigures()
        }
        let text = metrics.render(radios: summaries, webSocketClients: publisher.broadcaster.subscriberCount,
                                  droppedClients: publisher.broadcaster.droppedCount)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Sets the token cookie for browsers (the UI's login), after checking the token.
    private func login(_ request: Request) async throws(APIError) -> Response {
        struct Login: Decodable { let token: String }
        let given = try await body(Login.self, request)
        guard let token = policy.token else { return try json(OKJSON()) }
        guard token.matches(given.token[...]) else {
            metrics.rejected("token")
            throw APIError(.unauthorized, "unauthorized", "that is not this server's token (it is in \(token.path))")
        }
        var response = try json(OKJSON())
        response.setCookie(Cookie(name: SecurityPolicy.cookieName, value: token.value, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// The whole database, copied with SQLite's online backup while the radios keep writing,
    /// then streamed from the copy (unlinked at once: it goes when the answer is sent).
    private func backup(logger: Logger) async throws(APIError) -> Response {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-backup-\(UUID().uuidString).db").path
        let store = store
        let handle: FileHandle
        let size: Int
        do {
            _ = try await Task.detached { try store.backup(to: file) }.value
            size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            try FileManager.default.removeItem(atPath: file)
        } catch {
            throw APIError.from(error)
        }
        let stamp = Date().formatted(.iso8601.year().month().day().dateSeparator(.omitted))
        let headers: HTTPFields = [.contentType: "application/vnd.sqlite3", .contentDisposition: "attachment; filename=\"meshport-\(stamp).db\""]
        return Response(status: .ok, headers: headers, body: ResponseBody(contentLength: size) { writer in
            defer { BackupStream.close(handle, logger: logger) }
            while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        })
    }
}

private enum BackupStream {
    static func close(_ handle: FileHandle, logger: Logger) {
        do { try handle.close() } catch { logger.warning("Closing the backup copy failed: \(error.localizedDescription)") }
    }
}
