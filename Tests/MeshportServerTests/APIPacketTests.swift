import Foundation
import Testing

/// The packet log over HTTP and WebSocket: live `packet` events, then the same packets in
/// newest-first cursor pages with type and node filters.
@Suite(.timeLimit(.minutes(2))) struct APIPacketTests {
    @Test func packetsArriveLiveAndPageByCursor() async throws {
        let world = try await ServerWorld()
        let events = try await RawWebSocket.connect(port: world.port)
        #expect(events.status == 101, "\(events.responseHead)")
        // The default mesh's chatter on Public: heard as group texts the radio's Public secret opens.
        let event = try await events.event("a packet on Public", within: .seconds(60)) {
            $0["type"] as? String == "packet" && ($0["packet"] as? [String: Any])?["kind"] as? String == "groupText"
        }
        #expect(event["radio"] as? String == "0")
        let live = try #require(event["packet"] as? [String: Any])
        #expect(live["channel"] as? Int == 0 && live["payloadType"] as? String == "grouptext" && live["id"] == nil, "\(live)")
        #expect((live["hash"] as? String)?.count == 16 && live["route"] as? String == "flood", "\(live)")
        await events.close()

        // Written by the coalescer within a few seconds.
        var first: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            first = try await world.get("/api/radios/0/packets?type=grouptext&limit=500").object["packets"] as? [[String: Any]] ?? []
            if first.contains(where: { $0["raw"] as? String == live["raw"] as? String }) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(first.contains { $0["raw"] as? String == live["raw"] as? String }, "the live packet is not in the log")
        #expect(first.allSatisfy { $0["payloadType"] as? String == "grouptext" && $0["id"] is Int })

        var seen: [Int] = []
        var before: String?
        repeat {
            let page = try await world.get("/api/radios/0/packets?limit=2" + (before.map { "&before=\($0)" } ?? ""))
            #expect(page.status == 200, "\(page)")
            let packets = try #require(page.object["packets"] as? [[String: Any]], "\(page)")
            #expect(packets.count <= 2)
            seen += packets.compactMap { $0["id"] as? Int }
            before = page.object["older"] as? String
        } while before != nil && seen.count < 40
        #expect(seen.count >= 2 && Set(seen).count == seen.count, "\(seen)")

        let bad = try await world.get("/api/radios/0/packets?type=dragon")
        #expect(bad.status == 400 && bad.text.contains("is not a payload type"), "\(bad)")
        let badNode = try await world.get("/api/radios/0/packets?node=abc")
        #expect(badNode.status == 400, "\(badNode)")
        let nobody = try await world.get("/api/radios/0/packets?node=" + String(repeating: "0", count: 64))
        #expect(nobody.status == 200 && (nobody.object["packets"] as? [Any])?.isEmpty == true, "\(nobody)")
    }
}
