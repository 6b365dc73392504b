import Foundation
import MeshportTestSupport
import Testing

/// 1,000 messages waiting on the radio: the first connection drains them all into the store.
@Suite(.timeLimit(.minutes(1))) struct CLIDrainTests {
    static func backlog(_ count: Int) -> String {
        let events = (0..<count).map { i in
            i % 2 == 0 ? #"{"at": 0, "dm": {"from": "a", "text": "queued dm \#(i)"}}"#
                       : #"{"at": 0, "channel": {"from": "b", "text": "queued channel \#(i)"}}"#
        }
        return #"{"radio": {"offlineQueueSize": \#(count)}, "nodes": [{"id": "a", "name": "Alpha"}, {"id": "b", "name": "Bravo"}], "events": ["#
            + events.joined(separator: ",") + "]}"
    }

    @Test(arguments: Link.allCases) func aThousandQueuedMessagesAreStored(link: Link) async throws {
        let world = try await CLIWorld(link, scenario: Self.backlog(1000))
        let info = try await world.json(["info"])
        let radio = try #require(info.value as? [String: Any], "\(info.err)")
        #expect(radio["messages"] as? Int == 1000, "\(radio)")
        #expect(info.err.contains("1000 messages drained"), "\(info.err)")

        // The store agrees, read by `meshport db`; nothing is left on the radio.
        let check = try await world.run(["db", "check", "--json", "--db", world.database], radio: false)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.out.utf8)) as? [String: Any], "\(check.err)")
        let rows = (report["radios"] as? [[String: Any]])?.first?["rows"] as? [String: Int]
        #expect(report["ok"] as? Bool == true && rows?["messages"] == 1000, "\(report)")
        let again = try await world.json(["info"])
        #expect(again.err.contains("0 messages drained") && (again.value as? [String: Any])?["messages"] as? Int == 1000, "\(again.err)")
    }
}
