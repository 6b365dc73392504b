import Foundation
import MeshCodec
import MeshStore
import Testing

/// What the API does over a simulated radio: sending and delivery, paging, unread counts,
/// errors, several radios, and a shutdown that leaves the store complete.
@Suite(.timeLimit(.minutes(2))) struct APIBehaviourTests {
    @Test func aDMBecomesDeliveredOnTheEventsStream() async throws {
        let world = try await ServerWorld()
        let events = try await RawWebSocket.connect(port: world.port)
        #expect(events.status == 101, "\(events.responseHead)")
        let hello = RawWebSocket.object(try await events.next())
        #expect(hello["type"] as? String == "hello" && (hello["radios"] as? [Any])?.count == 1, "\(hello)")

        let pine = try await world.contactKey("Pine")
        let sent = try await world.send("POST", "/api/radios/0/contacts/\(pine)/messages", ["text": "are you there, Pine?"])
        #expect(sent.status == 202 && sent.object["status"] as? String == "sent", "\(sent)")
        let id = try #require(sent.object["id"] as? Int)
        // The statuses of this message, in order, until delivered.
        var statuses: [String] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while statuses.last != "delivered" {
            let event = try await events.event("a status of message \(id)", within: deadline - .now) {
                $0["type"] as? String == "messageStatus" && ($0["message"] as? [String: Any])?["id"] as? Int == id
            }
            statuses.append((event["message"] as? [String: Any])?["status"] as? String ?? "?")
        }
        #expect(statuses.first == "pending" && statuses.contains("sent"), "\(statuses)")
        let stored = try await world.get("/api/radios/0/messages/\(id)")
        #expect(stored.object["status"] as? String == "delivered" && (stored.object["roundTripMs"] as? Int ?? 0) > 0, "\(stored)")
        await events.close()
    }

    @Test func aReceivedMessageArrivesLive() async throws {
        // Faraway DMs us every 2 s for two minutes of the sim's clock, which starts before the
        // server connects: whatever the machine's load, DMs keep coming once the test listens.
        let dms = (1...60).map { #"{"at": \#($0 * 2), "dm": {"from": "far", "text": "live \#($0)"}}"# }.joined(separator: ", ")
        let scenario = #"{"nodes": [{"id": "far", "name": "Faraway"}], "events": ["# + dms + "]}"
        let world = try await ServerWorld(scenario: scenario)
        let events = try await RawWebSocket.connect(port: world.port)
        _ = try await events.event("hello") { $0["type"] as? String == "hello" }
        let event = try await events.event("a received message", within: .seconds(45)) { $0["type"] as? String == "message" }
        let message = try #require(event["message"] as? [String: Any], "\(event)")
        #expect((message["text"] as? String)?.hasPrefix("live ") == true && message["direction"] as? String == "in", "\(event)")
        // Stored before it was announced, and counted unread in Faraway's conversation.
        let stored = try await world.get("/api/radios/0/messages/\(message["id"] as? Int ?? -1)")
        #expect(stored.status == 200 && stored.object["text"] as? String == message["text"] as? String, "\(stored)")
        let list = try await world.get("/api/radios/0/conversations").object["conversations"] as? [[String: Any]] ?? []
        let faraway = try #require(list.first { $0["name"] as? String == "Faraway" }, "\(list)")
        #expect(faraway["unread"] as? Int ?? 0 >= 1, "\(faraway)")
        await events.close()
    }

    @Test func timelinesPageByCursorWithoutGapsOrRepeats() async throws {
        let world = try await ServerWorld()
        for n in 1...7 {
            let sent = try await world.send("POST", "/api/radios/0/channels/0/messages", ["text": "page test \(n)"])
            #expect(sent.status == 201, "\(sent)")
        }
        var seen: [Int] = []
        var before: String?
        repeat {
            let page = try await world.get("/api/radios/0/channels/0/messages?limit=3" + (before.map { "&before=\($0)" } ?? ""))
            let messages = try #require(page.object["messages"] as? [[String: Any]], "\(page)")
            #expect(messages.count <= 3)
            seen += messages.compactMap { $0["id"] as? Int }
            before = page.object["older"] as? String
        } while before != nil
        #expect(seen == seen.sorted(by: >) && Set(seen).count == seen.count, "\(seen)")
        // The default mesh keeps talking on Public: what arrived after the first page is newer
        // than anything the walk could see (it failed so, once, on a loaded machine).
        let all = try await world.get("/api/radios/0/channels/0/messages?limit=500").object["messages"] as? [[String: Any]]
        let newest = try #require(seen.first)
        #expect(seen == all?.compactMap { $0["id"] as? Int }.filter { $0 <= newest })
    }

    @Test func unreadCountsAndMarkingRead() async throws {
        let world = try await ServerWorld()
        // The default mesh has messages waiting at boot: the Public channel has unread ones.
        let before = try await world.get("/api/radios/0/conversations").object
        let publicChannel = (before["conversations"] as? [[String: Any]])?.first { ($0["conversation"] as? [String: Any])?["channel"] as? Int == 0 }
        let unread = try #require(publicChannel?["unread"] as? Int, "\(before)")
        #expect(unread > 0 && (before["totalUnread"] as? Int ?? 0) >= unread)
        // The mesh keeps talking: what is stored after the mark is unread again, and only that.
        let publicSlot = { try await world.get("/api/radios/0/channels").array.first { $0["index"] as? Int == 0 } }
        let storedAtMark = try #require(try await publicSlot()?["messages"] as? Int)
        #expect(try await world.send("POST", "/api/radios/0/channels/0/read").status == 200)
        let after = try #require(try await publicSlot())
        let arrivedSince = try #require(after["messages"] as? Int) - storedAtMark
        // Zero when nothing arrived in between.
        #expect(try #require(after["unread"] as? Int) <= arrivedSince, "\(after), \(arrivedSince) stored since the mark")
    }

    @Test func settingsAreReadBackAndErrorsAreTyped() async throws {
        let world = try await ServerWorld(extraRadios: ["tcp://127.0.0.1:1"])
        let name = try await world.send("PUT", "/api/radios/0/settings/name", ["value": "Served"])
        #expect(name.status == 200 && name.object["after"] as? String == "Served", "\(name)")
        #expect(try await world.get("/api/radios/0/self").object["name"] as? String == "Served")
        let tooHigh = try await world.send("PUT", "/api/radios/0/settings/tx", ["value": "99"])
        #expect(tooHigh.status == 400 && tooHigh.errorCode == "out_of_range", "\(tooHigh)")
        let unknown = try await world.send("PUT", "/api/radios/0/settings/warp", ["value": "9"])
        #expect(unknown.status == 404 && unknown.errorCode == "unknown_setting", "\(unknown)")
        let notJSON = try await RawHTTP.request(port: world.port, "PUT", "/api/radios/0/settings/name", body: Array("name=x".utf8))
        #expect(notJSON.status == 400 && notJSON.errorCode == "bad_request", "\(notJSON)")
        // The second radio: nothing listens there, so it is not ready, and says why.
        let away = try await world.get("/api/radios/1/self")
        #expect(away.status == 503 && away.errorCode == "radio_not_ready", "\(away)")
        let radios = try await world.get("/api/radios").array
        #expect(radios.count == 2 && radios[0]["ready"] as? Bool == true && radios[1]["ready"] as? Bool == false && radios[1]["lastError"] != nil, "\(radios)")
    }

    /// POST /advert: zero-hop without a body, flood when asked; the position only once the
    /// location policy shares it; the radio's counters show each advert on air.
    @Test func theRadioAdvertisesItself() async throws {
        let world = try await ServerWorld(extraRadios: ["tcp://127.0.0.1:1"])
        func sent() async throws -> (flood: Int, direct: Int) {
            let sample = try await world.send("POST", "/api/radios/0/stats/sample").object
            return (try #require(sample["sentFlood"] as? Int), try #require(sample["sentDirect"] as? Int))
        }
        let before = try await sent()
        let zeroHop = try await RawHTTP.request(port: world.port, "POST", "/api/radios/0/advert")
        #expect(zeroHop.status == 200 && zeroHop.object["flood"] as? Bool == false && zeroHop.object["latitude"] == nil, "\(zeroHop)")
        let afterZeroHop = try await sent()
        #expect(afterZeroHop.direct == before.direct + 1 && afterZeroHop.flood == before.flood)

        #expect(try await world.send("PUT", "/api/radios/0/settings/advert_loc_policy", ["value": "share"]).status == 200)
        let flood = try await world.send("POST", "/api/radios/0/advert", ["flood": true])
        #expect(flood.status == 200 && flood.object["flood"] as? Bool == true && flood.object["latitude"] is Double, "\(flood)")
        #expect(flood.object["publicKey"] as? String == (try await world.get("/api/radios/0/self")).object["publicKey"] as? String)
        #expect(try await sent().flood == afterZeroHop.flood + 1)

        let wrongType = try await world.send("POST", "/api/radios/0/advert", ["flood": "yes"])
        #expect(wrongType.status == 400 && wrongType.text.contains("flood"), "\(wrongType)")
        let away = try await world.send("POST", "/api/radios/1/advert", ["flood": false])
        #expect(away.status == 503 && away.errorCode == "radio_not_ready", "\(away)")
    }

    /// What the API fuzzing (Tools/Reliability/api_fuzz.py) found: an offset that is no
    /// number, or below 0, was read as 0; a method a path does not take was a bare 404.
    @Test func badOffsetsAndOtherMethodsAreRefusedSayingWhy() async throws {
        let world = try await ServerWorld()
        for offset in ["-1", "abc", "1.5"] {
            let bad = try await world.get("/api/radios/0/contacts?offset=\(offset)")
            #expect(bad.status == 400 && bad.errorCode == "bad_request" && bad.text.contains("offset"), "\(offset): \(bad)")
        }
        let all = try await world.get("/api/radios/0/contacts").array
        let skipped = try await world.get("/api/radios/0/contacts?offset=1").array
        #expect(all.count > 1 && skipped.first?["key"] as? String == all[1]["key"] as? String, "\(skipped.prefix(1))")

        let pine = try await world.contactKey("Pine")
        for (method, path, allow) in [("TRACE", "/api/radios", "GET"), ("DELETE", "/api/radios/0/contacts/\(pine)", "GET"),
                                      ("PUT", "/api/radios/0/channels", "GET, POST"), ("GET", "/api/session", "POST"),
                                      ("HEAD", "/healthz", "GET"), ("POST", "/index.html", "GET")] {
            let reply = try await RawHTTP.request(port: world.port, method, path)
            #expect(reply.status == 405 && reply.header("Allow") == allow, "\(method) \(path): \(reply) \(reply.headers)")
            if method != "HEAD" {
                #expect(reply.errorCode == "method_not_allowed" && reply.text.contains("does not take \(method)"), "\(reply)")
            }
        }
        // A path that is no route at all stays 404, whatever the method.
        let none = try await RawHTTP.request(port: world.port, "POST", "/api/nothing")
        #expect(none.status == 404 && none.errorCode == "not_found" && none.text.contains("no API route POST /api/nothing"), "\(none)")
    }

    @Test func radiosAreServedSideBySide() async throws {
        let world = try await ServerWorld(sims: 2)
        let radios = try await world.get("/api/radios").array
        let keys = radios.compactMap { $0["publicKey"] as? String }
        #expect(keys.count == 2 && keys[0] != keys[1], "\(radios)")
        // A message sent on one radio is in its history only.
        let sent = try await world.send("POST", "/api/radios/1/channels/0/messages", ["text": "only on radio one"])
        #expect(sent.status == 201)
        #expect(try await world.get("/api/radios/1/search?q=only").object["hits"].map { ($0 as? [Any])?.count } == 1)
        #expect(try await world.get("/api/radios/0/search?q=only").object["hits"].map { ($0 as? [Any])?.count } == 0)
    }

    @Test func shutdownClosesTheLinksAndWritesTheStore() async throws {
        let world = try await ServerWorld(serveArguments: ["--stats-interval", "0"], companions: 1)
        // Statistics go through the coalescer (written 2-5 s later, or at shutdown).
        let sample = try await world.send("POST", "/api/radios/0/stats/sample")
        #expect(sample.status == 200, "\(sample)")
        // Clients still connected when the signal comes: an events stream and a companion app.
        let events = try await RawWebSocket.connect(port: world.port)
        _ = try await events.event("hello") { $0["type"] as? String == "hello" }
        let app = try await CompanionClient(port: world.serve.companionPorts[0])
        try app.send([0x05])
        try await app.wait("CURR_TIME") { $0.contains { $0.first == 0x09 } }
        let status = try await world.serve.stop()
        #expect(status == 0, "exit \(String(describing: status)): \(world.serve.stderr)")
        // The events stream was closed normally (1000), not cut.
        var closing: RawWebSocket.Message?
        while closing == nil {
            let message = try await events.next(within: .seconds(10))
            if case .close = message { closing = message }
        }
        #expect(closing == .close(code: 1000, reason: ""), "\(String(describing: closing))")
        // The WAL was folded into the file at close.
        let wal = world.database + "-wal"
        let walSize = FileManager.default.fileExists(atPath: wal) ? try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int : 0
        #expect(walSize == 0)
        let store = try MeshStore.open(at: world.database, options: StoreOptions(mode: .readOnly))
        let radio = try #require(try store.reader.radios().first)
        #expect(try store.reader.stats(radio.id, node: nil).first?.batteryMillivolts == sample.object["batteryMillivolts"] as? Int)
        try await store.close()
    }
}
