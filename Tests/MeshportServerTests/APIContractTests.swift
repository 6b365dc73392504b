import Foundation
import Testing

/// Every answer of the running server (meshport serve on meshport sim) matches what
/// Docs/openapi.json says of that route and status, and every route the document lists is
/// called at least once.
@Suite(.timeLimit(.minutes(3))) struct APIContractTests {
    @Test func answersMatchTheOpenAPIDocument() async throws {
        // A region history, so the /api/region routes answer with rows (Support/RegionSample.swift).
        let (postgres, history) = try await RegionSample.database()
        let world = try await ServerWorld(serveArguments: ["--history", history])
        let schema = try SchemaValidator.openAPI()
        // Every event the run causes is checked against the document's Event too.
        let events = try await RawWebSocket.connect(port: world.port)
        #expect(events.status == 101, "\(events.responseHead)")
        var called: Set<String> = []
        var problems: [String] = []

        func check(_ method: String, _ template: String, _ path: String, _ body: Any? = nil, headers: [(String, String)] = []) async throws -> HTTPReply {
            let reply: HTTPReply
            if let body {
                reply = try await world.send(method, path, body, headers: headers)
            } else {
                reply = try await RawHTTP.request(port: world.port, method, path, headers: headers)
            }
            called.insert("\(method) \(template)")
            do {
                if let s = try schema.responseSchema(method, template, status: reply.status) {
                    let json = try reply.json()
                    problems += schema.errors(json, s).map { "\(method) \(path) \(reply.status): \($0)" }
                }
            } catch {
                problems.append("\(method) \(path): \(error) \(reply)")
            }
            return reply
        }

        let r = "/api/radios/{radio}"
        _ = try await check("GET", "/healthz", "/healthz")
        _ = try await check("GET", "/api/radios", "/api/radios")
        _ = try await check("GET", "/api/map", "/api/map")
        _ = try await check("GET", r, "/api/radios/0")
        _ = try await check("GET", r, "/api/radios/9")
        _ = try await check("GET", "\(r)/self", "/api/radios/0/self")
        _ = try await check("POST", "\(r)/advert", "/api/radios/0/advert")
        _ = try await check("POST", "\(r)/advert", "/api/radios/0/advert", ["flood": true])
        _ = try await check("POST", "\(r)/advert", "/api/radios/0/advert", ["flood": 1])
        _ = try await check("GET", "\(r)/contacts", "/api/radios/0/contacts")
        _ = try await check("GET", "\(r)/contacts", "/api/radios/0/contacts?type=repeater&q=re&limit=5")
        _ = try await check("GET", "\(r)/contacts", "/api/radios/0/contacts?type=dragon")
        let pine = try await world.contactKey("Pine")
        let repeater = try await world.contactKey("Repeater North")
        let room = try await world.contactKey("Town Square")
        _ = try await check("GET", "\(r)/contacts/{key}", "/api/radios/0/contacts/\(pine)")
        _ = try await check("GET", "\(r)/contacts/{key}", "/api/radios/0/contacts/nothex")
        _ = try await check("GET", "\(r)/contacts/{key}", "/api/radios/0/contacts/" + String(repeating: "0", count: 64))
        let sent = try await check("POST", "\(r)/contacts/{key}/messages", "/api/radios/0/contacts/\(pine)/messages", ["text": "contract hello"])
        #expect(sent.status == 202, "\(sent)")
        _ = try await check("POST", "\(r)/contacts/{key}/messages", "/api/radios/0/contacts/\(pine)/messages", ["text": ""])
        _ = try await check("POST", "\(r)/contacts/{key}/messages", "/api/radios/0/contacts/\(pine)/messages", ["words": 1])
        _ = try await check("GET", "\(r)/contacts/{key}/messages", "/api/radios/0/contacts/\(pine)/messages?limit=5")
        _ = try await check("POST", "\(r)/contacts/{key}/read", "/api/radios/0/contacts/\(pine)/read")
        _ = try await check("GET", "\(r)/messages/{id}", "/api/radios/0/messages/\(sent.object["id"] as? Int ?? 0)")
        _ = try await check("GET", "\(r)/messages/{id}", "/api/radios/0/messages/999999")
        _ = try await check("GET", "\(r)/conversations", "/api/radios/0/conversations")
        _ = try await check("GET", "\(r)/channels", "/api/radios/0/channels")
        _ = try await check("POST", "\(r)/channels/{index}/messages", "/api/radios/0/channels/0/messages", ["text": "contract on public"])
        _ = try await check("GET", "\(r)/channels/{index}/messages", "/api/radios/0/channels/0/messages?limit=3")
        _ = try await check("GET", "\(r)/channels/{index}/messages", "/api/radios/0/channels/0/messages?before=bad")
        _ = try await check("POST", "\(r)/channels/{index}/read", "/api/radios/0/channels/0/read")
        _ = try await check("POST", "\(r)/channels", "/api/radios/0/channels", ["name": "#contract"])
        _ = try await check("PUT", "\(r)/channels/{index}", "/api/radios/0/channels/2", ["name": "Club", "passphrase": "open sesame"])
        _ = try await check("PUT", "\(r)/channels/{index}", "/api/radios/0/channels/3", ["name": "Bad", "secret": "12"])
        _ = try await check("DELETE", "\(r)/channels/{index}", "/api/radios/0/channels/2")
        _ = try await check("GET", "\(r)/search", "/api/radios/0/search?q=contract")
        _ = try await check("GET", "\(r)/search", "/api/radios/0/search")
        _ = try await check("POST", "\(r)/stats/sample", "/api/radios/0/stats/sample")
        _ = try await check("GET", "\(r)/stats", "/api/radios/0/stats")
        _ = try await check("POST", "\(r)/telemetry", "/api/radios/0/telemetry")
        _ = try await check("POST", "\(r)/remote/{key}/login", "/api/radios/0/remote/\(repeater)/login", ["password": "password"])
        _ = try await check("POST", "\(r)/remote/{key}/status", "/api/radios/0/remote/\(repeater)/status")
        _ = try await check("POST", "\(r)/remote/{key}/telemetry", "/api/radios/0/remote/\(repeater)/telemetry")
        _ = try await check("GET", "\(r)/remote/{key}/telemetry", "/api/radios/0/remote/\(repeater)/telemetry")
        _ = try await check("GET", "\(r)/stats", "/api/radios/0/stats?node=\(repeater)")
        _ = try await check("GET", "\(r)/remote", "/api/radios/0/remote")
        _ = try await check("POST", "\(r)/remote/{key}/logout", "/api/radios/0/remote/\(repeater)/logout")
        _ = try await check("POST", "\(r)/remote/{key}/login", "/api/radios/0/remote/\(room)/login", ["password": "hello"])
        _ = try await check("GET", "\(r)/remote/{key}/posts", "/api/radios/0/remote/\(room)/posts")
        _ = try await check("GET", "\(r)/settings", "/api/radios/0/settings")
        _ = try await check("GET", "\(r)/settings/{name}", "/api/radios/0/settings/tx")
        _ = try await check("GET", "\(r)/settings/{name}", "/api/radios/0/settings/warp")
        _ = try await check("PUT", "\(r)/settings/{name}", "/api/radios/0/settings/name", ["value": "Contract"])
        _ = try await check("PUT", "\(r)/settings/{name}", "/api/radios/0/settings/tx", ["value": "99"])
        _ = try await check("GET", "\(r)/packets", "/api/radios/0/packets?limit=5")
        _ = try await check("GET", "\(r)/packets", "/api/radios/0/packets?type=advert&limit=2&before=\(Int64.max)_1")
        _ = try await check("GET", "\(r)/packets", "/api/radios/0/packets?node=\(repeater)")
        _ = try await check("GET", "\(r)/packets", "/api/radios/0/packets?type=dragon")
        _ = try await check("POST", "/api/session", "/api/session", ["token": "anything"])
        _ = try await check("GET", "/api/events", "/api/events")

        let server = try await check("GET", "/api/server", "/api/server").object
        #expect(server["regionHistory"] as? Bool == true)
        let region = "/api/region"
        #expect(try await check("GET", "\(region)/summary", "\(region)/summary").object["observations"] as? Int == 5)
        let nodes = try await check("GET", "\(region)/nodes", "\(region)/nodes").object["nodes"] as? [[String: Any]]
        #expect(nodes?.first?["name"] as? String == "Hilltop" && (nodes?.first?["best"] as? [String: Any])?["snr"] as? Double == 7.5)
        _ = try await check("GET", "\(region)/nodes", "\(region)/nodes?before=nonsense")
        let node = String(repeating: "07", count: 32)
        let observations = try await check("GET", "\(region)/nodes/{key}/observations", "\(region)/nodes/\(node)/observations?limit=2").object
        #expect((observations["observations"] as? [Any])?.count == 2 && observations["older"] is String)
        if let older = observations["older"] as? String {
            let rest = try await check("GET", "\(region)/nodes/{key}/observations", "\(region)/nodes/\(node)/observations?limit=2&before=\(older)")
            #expect((rest.object["observations"] as? [Any])?.count == 1 && rest.object["older"] == nil)
        }
        _ = try await check("GET", "\(region)/nodes/{key}/observations", "\(region)/nodes/xyz/observations")
        let packets = try await check("GET", "\(region)/packets", "\(region)/packets?type=grouptext").object["packets"] as? [[String: Any]]
        #expect(packets?.map { $0["payloadType"] as? String } == ["grouptext"])
        _ = try await check("GET", "\(region)/packets", "\(region)/packets?type=dragon")
        let messages = try await check("GET", "\(region)/channels/messages", "\(region)/channels/messages?channel=Public").object["messages"] as? [[String: Any]]
        #expect(messages?.first?["text"] as? String == "hello region")
        #expect((try await check("GET", "\(region)/observers", "\(region)/observers").object["observers"] as? [Any])?.count == 3)
        #expect((try await check("GET", "\(region)/links", "\(region)/links").object["links"] as? [Any])?.count == 3)
        _ = try await check("GET", "\(region)/links", "\(region)/links?hours=0")
        _ = try await check("GET", "\(region)/hours", "\(region)/hours")
        // The database away: 503 with its reason, the server still up.
        try await postgres.stop()
        let away = try await check("GET", "\(region)/summary", "\(region)/summary")
        #expect(away.status == 503 && away.errorCode == "region_unavailable", "\(away)")
        let backup = try await check("GET", "/api/backup", "/api/backup")
        #expect(backup.status == 200 && backup.body.starts(with: Array("SQLite format 3\0".utf8)), "\(backup.status) \(backup.body.prefix(16))")
        let metrics = try await check("GET", "/metrics", "/metrics")
        #expect(metrics.status == 200)

        // The events so far, until none comes for 2 s: each one a documented Event.
        let eventSchema: [String: Any] = ["$ref": "#/components/schemas/Event"]
        var types: Set<String> = []
        for _ in 0..<5000 {
            let message: RawWebSocket.Message
            do {
                message = try await events.next(within: .seconds(2))
            } catch {
                break
            }
            guard case let .text(text) = message else { break }
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
            types.insert((json as? [String: Any])?["type"] as? String ?? "?")
            problems += schema.errors(json, eventSchema).map { "event \(text.prefix(120)): \($0)" }
        }
        #expect(types.isSuperset(of: ["hello", "messageStatus", "remote", "packet"]), "event types seen: \(types.sorted())")
        await events.close()

        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // Every documented operation was called.
        let documented = Set(schema.paths.flatMap { path, ops in ops.keys.map { "\($0.uppercased()) \(path)" } })
        #expect(documented.subtracting(called).isEmpty, "not called: \(documented.subtracting(called).sorted())")
    }
}
