import Foundation
import MeshportTestSupport
import Testing

/// `meshport send`: waits for the ACK, retries direct then flood, says when nothing came back.
@Suite(.timeLimit(.minutes(1))) struct CLISendTests {
    @Test(arguments: Link.allCases) func aDirectMessageIsDelivered(link: Link) async throws {
        let world = try await CLIWorld(link)
        // Pine has a known direct path in the default mesh.
        let send = try await world.run(["send", "Pine", "hello", "there"])
        #expect(send.status == 0 && send.out.hasPrefix("delivered in "), "\(send.status) \(send.out) \(send.err)")
        let json = try await world.json(["send", "Alder", "flood hello"])
        let m = try #require(json.value as? [String: Any], "\(json.status) \(json.err)")
        #expect(m["delivered"] as? Bool == true && m["status"] as? String == "delivered" && m["text"] as? String == "flood hello", "\(m)")
        // Both are in the history.
        #expect(try await world.searchTexts("hello") == ["flood hello", "hello there"])
    }

    /// Faraway's path is known but direct packets never reach it: two direct attempts go
    /// unanswered, the third floods after a path reset and is acknowledged.
    @Test(arguments: Link.allCases) func retriesFallBackToFlood(link: Link) async throws {
        let world = try await CLIWorld(link, scenario: #"{"nodes": [{"id": "far", "name": "Faraway", "knownPath": true, "dropsDirect": true}]}"#)
        // Shorter ACK waits than the default 1.2 x the radio's suggestion, still far above the sim's round trip.
        let json = try await world.json(["send", "Faraway", "are you there?", "--ack-wait", "0.6"])
        let m = try #require(json.value as? [String: Any], "\(json.status) \(json.err)")
        #expect(m["delivered"] as? Bool == true && m["attempts"] as? Int == 3 && m["flood"] as? Bool == true, "\(m)")
    }

    @Test func noAckIsExitStatusFour() async throws {
        let world = try await CLIWorld(.tcp)
        // A contact nobody simulates: its messages are sent and never acknowledged.
        let add = try await world.run(["contacts", "add", String(repeating: "1", count: 64), "--name", "Ghost"])
        #expect(add.status == 0, "\(add.err)")
        let send = try await world.run(["send", "Ghost", "boo", "--attempts", "2", "--direct-attempts", "0", "--ack-wait", "0.2"])
        #expect(send.status == 4 && send.err.contains("no ACK from 111111111111 after 2 attempts"), "\(send.status) \(send.err)")
        // With --json the failure is one JSON document on stdout: the message and the error.
        let json = try await world.run(["send", "Ghost", "boo again", "--attempts", "1", "--direct-attempts", "0", "--ack-wait", "0.2", "--json"])
        let m = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out) \(json.err)")
        #expect(json.status == 4 && m["exit_status"] as? Int == 4 && m["delivered"] as? Bool == false, "\(m)")
        #expect(m["text"] as? String == "boo again" && m["status"] as? String == "failed", "\(m)")
        #expect((m["error"] as? String)?.contains("no ACK from 111111111111") == true, "\(m)")
        // Failures before anything was sent, usage errors included, are JSON too.
        for arguments in [["send", "Nobody", "x", "--json"], ["send", "--json"]] {
            let failed = try await world.run(arguments)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(failed.out.utf8)) as? [String: Any], "\(arguments): \(failed.out)")
            #expect(doc["exit_status"] as? Int == Int(failed.status) && failed.status != 0 && doc["error"] is String, "\(doc)")
        }
    }

    @Test func channelMessagesAndNoWait() async throws {
        let world = try await CLIWorld(.tcp)
        let channel = try await world.run(["send", "--channel", "0", "hello", "everyone"])
        #expect(channel.status == 0 && channel.out == "sent\n", "\(channel.out) \(channel.err)")
        let noWait = try await world.json(["send", "Pine", "no waiting", "--no-wait"])
        let m = try #require(noWait.value as? [String: Any], "\(noWait.err)")
        #expect(m["status"] as? String == "sent" && m["delivered"] as? Bool == false, "\(m)")
        let unknown = try await world.run(["send", "Nobody", "x"])
        #expect(unknown.status == 1 && unknown.err.contains("no contact named or keyed \"Nobody\""), "\(unknown.err)")
    }
}
