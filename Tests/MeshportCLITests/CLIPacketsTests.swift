import Foundation
import MeshportTestSupport
import Testing

/// `meshport packets` against `meshport sim`: live packets with --follow (the default mesh's
/// adverts and chatter), then the same packets read back from the packet log.
@Suite(.timeLimit(.minutes(2))) struct CLIPacketsTests {
    static func packets(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
            #expect(event["type"] as? String == "packet", "\(line)")
            return try #require(event["packet"] as? [String: Any], "no packet in \(line)")
        }
    }

    @Test func followPrintsLivePacketsAndTheLogKeepsThem() async throws {
        let world = try await CLIWorld(.tcp)
        let live = try await world.run(["packets", "--follow", "--count", "3", "--json"])
        #expect(live.status == 0, "\(live.err)")
        let heard = try Self.packets(live.out)
        #expect(heard.count == 3)
        for p in heard {
            let hash = p["hash"] as? String ?? ""
            #expect(hash.count == 16 && hash.allSatisfy { $0.isHexDigit && !$0.isLowercase }, "hash \(hash)")
            #expect((p["raw"] as? String)?.isEmpty == false && p["kind"] is String && p["snr"] is Double && p["id"] == nil)
        }

        // The follow's disconnect wrote them: read back offline, newest first, with their ids.
        let stored = try await world.run(["packets", "--db", world.database, "--json", "--limit", "500"], radio: false)
        #expect(stored.status == 0, "\(stored.err)")
        let log = try Self.packets(stored.out)
        let logged = Set(log.compactMap { $0["raw"] as? String })
        #expect(heard.allSatisfy { logged.contains($0["raw"] as? String ?? "") }, "live packets missing from the log")
        #expect(log.allSatisfy { $0["id"] is Int })
        let times = log.compactMap { $0["heardAt"] as? String }
        #expect(times == times.sorted(by: >), "not newest first")

        let adverts = try await world.run(["packets", "--db", world.database, "--type", "advert"], radio: false)
        #expect(adverts.status == 0, "\(adverts.err)")
        let lines = adverts.out.split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains("ADVERT") && $0.contains("advert of ") } || adverts.out == "no packets heard of type advert\n", "\(adverts.out)")
    }

    @Test func followFiltersByTypeAndBadFiltersAreRefused() async throws {
        let world = try await CLIWorld(.tcp)
        // The default mesh's newcomers advertise every few seconds.
        let adverts = try await world.run(["packets", "--follow", "--type", "advert", "--count", "1", "--json"])
        #expect(adverts.status == 0, "\(adverts.err)")
        let advert = try #require(try Self.packets(adverts.out).first)
        #expect(advert["kind"] as? String == "advert" && advert["payloadType"] as? String == "advert")
        #expect((advert["node"] as? String)?.count == 64)

        let bad = try await world.run(["packets", "--type", "dragon"], radio: false)
        #expect(bad.status != 0 && bad.err.contains("--type must be one of"), "\(bad.err)")
        let badNode = try await world.run(["packets", "--node", "xyz"], radio: false)
        #expect(badNode.status != 0 && badNode.err.contains("--node"), "\(badNode.err)")
    }
}
