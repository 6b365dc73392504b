import Foundation
import MeshportTestSupport
import Testing

/// `meshport advert`: the radio sends its advert, zero-hop or flood, with its position once the
/// location policy shares it; the radio's own counters show what went on air.
@Suite(.timeLimit(.minutes(2))) struct CLIAdvertTests {
    @Test func zeroHopThenFloodWithThePosition() async throws {
        let world = try await CLIWorld(.tcp)
        func sent() async throws -> (flood: Int, direct: Int) {
            let stats = try #require(try await world.json(["stats"]).value as? [String: Any])
            return (try #require(stats["sentFlood"] as? Int), try #require(stats["sentDirect"] as? Int))
        }
        let before = try await sent()

        let zeroHop = try await world.json(["advert"])
        let quiet = try #require(zeroHop.value as? [String: Any], "\(zeroHop.err)")
        #expect(quiet["flood"] as? Bool == false && quiet["latitude"] == nil, "the default policy keeps the position: \(quiet)")
        #expect((quiet["publicKey"] as? String)?.count == 64 && quiet["name"] is String)
        let afterZeroHop = try await sent()
        #expect(afterZeroHop.direct == before.direct + 1 && afterZeroHop.flood == before.flood)

        let set = try await world.run(["set", "advert_loc_policy", "share"])
        #expect(set.status == 0, "\(set.err)")
        let flood = try await world.run(["advert", "--flood"])
        #expect(flood.status == 0, "\(flood.err)")
        #expect(flood.out.contains("flood: every repeater passes it on"), "\(flood.out)")
        let position = try #require(flood.out.split(separator: "\n").first { $0.hasPrefix("position") }, "\(flood.out)")
        #expect(!position.contains("not shared"), "\(flood.out)")
        let afterFlood = try await sent()
        #expect(afterFlood.flood == afterZeroHop.flood + 1 && afterFlood.direct == afterZeroHop.direct)
    }
}
